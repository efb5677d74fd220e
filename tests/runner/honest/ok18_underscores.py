import torch
for _ in range(2):
    pass
_x = 5
a, _ = (1, 2)
values, _idx = torch.tensor([3.0, 1.0, 2.0]).max(0), None
print(_x, a, _, values)
