import torch
a = torch.tensor([2.0], requires_grad=True)
b = torch.tensor([3.0], requires_grad=True)
c = a * b
print(c.grad_fn._saved_self, c.grad_fn._saved_other)
v = torch.zeros(2)
before = v._version
v.add_(1)
print(v._version - before)
