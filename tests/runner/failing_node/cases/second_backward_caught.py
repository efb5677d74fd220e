import torch
x = torch.tensor([2.0], requires_grad=True)
y = x.sin()
out = y * 5
out.backward()
try:
    out.backward()
except RuntimeError as e:
    print("caught")
print(x.grad)
