# expect: limit
# goal: a graph of too many nodes
import torch
x = torch.ones(1, requires_grad=True)
for i in range(100000):
    x = x * 1.0
