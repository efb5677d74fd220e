# expect: limit
# goal: doubling a tensor until memory runs out
import torch
x = torch.ones(1000)
while True:
    x = torch.cat([x, x])
