import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    y = x * 2
print(y.requires_grad, torch.is_grad_enabled())


@torch.no_grad()
def evaluate(t):
    return t * 3


print(evaluate(x).requires_grad, (x * 3).requires_grad)
with torch.enable_grad():
    print(torch.is_grad_enabled())
