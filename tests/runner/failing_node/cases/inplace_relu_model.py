import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(3, 2)
x = torch.tensor([[1.0, -2.0, 0.5]])
h = torch.relu(model(x))
h.mul_(2)
loss = h.sum()
loss.backward()
