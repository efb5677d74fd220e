# source: original
# topic: printing
# compare: exact
# visibility: public
# requires_grad=True for leaves, grad_fn=<...> for results; never both.
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
print(x)
print(x * 2)
print((x * 2).sum())
print(x.detach())
print(torch.tensor([1e-5, 1.0], requires_grad=True))
with torch.no_grad():
    print(x * 2)
y = torch.full((7,), 150.0, requires_grad=True)
print(y * 1)
z = torch.arange(9.) + 0.5
z.requires_grad_()
print(z * 1)
print(torch.arange(9.).requires_grad_())
print(torch.arange(10.).requires_grad_())
w = (torch.arange(20.) / 7).requires_grad_()
print(w * 1)
