import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x * x + 2 * x).sum()
y.backward()
print(x.grad, x.is_leaf, y.requires_grad)
print(type(y.grad_fn).__name__)
