import torch
import torch.nn as nn
torch.manual_seed(1)
lin = nn.Linear(2, 1)
state = lin.state_dict()
print(sorted(state.keys()), [tuple(v.shape) for k, v in sorted(state.items())])
params = {name: p for name, p in lin.named_parameters()}
print(list(params), sum(p.numel() for p in lin.parameters()))
