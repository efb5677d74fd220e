# source: original
# topic: bits
# compare: exact
# visibility: public
# logspace's values to the last bit (float32, float64, integer outputs, other bases) and
# histc's counts, including values that sit on a bin edge.
import torch

print(torch.logspace(0, 2, 3))
print(torch.logspace(0., 1., steps=7).tolist())
print(torch.logspace(-2, 2, 9).tolist())
print(torch.logspace(0.5, 3.5, 13, base=3).tolist())
print(torch.logspace(-1.6, -0.41031, 11).tolist())
print(torch.logspace(2.99, -3.0, 8, base=0.5).tolist())
print(torch.logspace(-1, 1, 5, base=2))
print(torch.logspace(0, 1, 4, dtype=torch.float64).tolist())
print(torch.logspace(0.3, 2.7, 6, dtype=torch.float64, base=2.718281828).tolist())
print(torch.logspace(0, 3, 4, dtype=torch.int64), torch.logspace(0, 1, 1), torch.logspace(0, 1, 0))
print(torch.logspace(1, 2, 2, requires_grad=True))
print(torch.logspace(torch.tensor(0.), torch.tensor(2.), 3))

x = torch.tensor([1., 2., 1., 4., 0.5, 3., 3.])
print(torch.histc(x, bins=4, min=0, max=3))
print(torch.histc(x, bins=4))
print(x.histc(5, 1, 4))
print(torch.histc(torch.tensor([2., 2.]), bins=3))
print(torch.histc(torch.arange(11.) / 10, bins=10, min=0, max=1))
print(torch.histc(torch.tensor([0.1, 0.2, 0.3, 0.7]), bins=10, min=0, max=1))
print(torch.histc(x.double(), bins=3), torch.histc(torch.tensor([]), bins=3))
grad_free = torch.histc(torch.tensor([1., 2.], requires_grad=True), 3)
print(grad_free, grad_free.requires_grad, grad_free.grad_fn)
