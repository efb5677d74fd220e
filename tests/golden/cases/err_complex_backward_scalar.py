# source: original
# topic: errors: backward from a complex output
# compare: exact
# visibility: public
import torch

z = torch.tensor([1 + 1j, 2 - 1j], requires_grad=True)
try:
    (z * z).sum().backward()
except RuntimeError as e:
    print(e)
try:
    torch.autograd.grad(z.sum(), z)
except RuntimeError as e:
    print(e)
(z * z).sum().backward(torch.tensor(1 + 0j))
print(z.grad)
(z * 2).backward()
