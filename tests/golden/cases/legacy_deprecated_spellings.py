# source: original
# topic: legacy API
# compare: exact
# visibility: public
# Spellings from before PyTorch 0.4 that 2.13 still runs with a warning: torch.range (end
# included), nn.init's functions without the underscore, clip_grad_norm.
import torch
import torch.nn as nn

print(torch.range(0, 4), torch.range(1, 2, 0.25), torch.range(-1, -3, -0.5))
print(torch.range(0, 3, dtype=torch.int64), torch.range(0, 1, 0.1)[3].item())
for bad in ((0, 1, 0), (0, 1, -1), (5,)):
    try:
        torch.range(*bad)
    except (RuntimeError, TypeError) as e:
        print(type(e).__name__, e)
torch.manual_seed(0)
w = torch.empty(2, 3)
nn.init.xavier_uniform(w)
print(w)
nn.init.kaiming_normal(w)
print(w.shape)
nn.init.constant(w, 0.5)
nn.init.uniform(w, 0.0, 0.0)
print(w)
nn.init.normal(w, mean=1.0, std=0.0)
print(w, nn.init.xavier_normal(w) is w, nn.init.kaiming_uniform(w) is w)
m = nn.Linear(2, 2)
nn.init.constant(m.weight, 1.0)
nn.init.constant(m.bias, 0.0)
(m(torch.tensor([[3.0, 4.0]])) ** 2).sum().backward()
total = nn.utils.clip_grad_norm(m.parameters(), 1.0)
print(total, m.weight.grad)
