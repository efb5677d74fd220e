# source: original
# topic: tensor-api
# compare: exact
# visibility: public
# clamp_min / clamp_max (number: ClampMinBackward0, tensor: ClampMinBackward1) and their
# in-place forms, Tensor.stride() of contiguous, transposed, expanded and sliced tensors, and
# torch.linalg.inv_ex: its named tuple, info for singular matrices, check_errors.
import torch

x = torch.tensor([0.5, -1.3, 2.0, 0.1], requires_grad=True)
y = x * 1
print(y.clamp_min(0.2), y.clamp_max(0.2))
print(torch.clamp_min(y, 0.2), torch.clamp_max(y, torch.tensor(0.3)))
print(y.clamp_min(torch.tensor([0.0, 0.0, 0.0, 1.0])).grad_fn._saved_min)
print(y.clamp_min(0.2).grad_fn._saved_min, y.clamp_max(-1).grad_fn._saved_max)
lo = torch.tensor([0.0, 0.0, 3.0, 0.0], requires_grad=True)
torch.clamp_min(x, lo).sum().backward()
print(x.grad, lo.grad)
x.grad = None
z = x * 2
z.clamp_min_(0.0)
print(z)
z = x * 2
z.clamp_max_(0.0)
print(z, z._version)
z.sum().backward()
print(x.grad)
try:
    x.clamp_min_(0.0)
except RuntimeError as e:
    print("RuntimeError", e)
print(torch.clamp_min(torch.tensor([1, -2, 3]), 0))

a = torch.zeros(2, 3)
print(a.stride(), a.t().stride(), a.stride(0), a.stride(-1), a[:, 1].stride(), a[1].stride())
print(torch.tensor(1.0).stride(), torch.zeros(4, 1, 2).stride(), torch.zeros(3).expand(2, 3).stride())
print(torch.arange(24.0).view(2, 3, 4).permute(2, 0, 1).stride(), a.t().contiguous().stride())
try:
    a.stride(2)
except IndexError as e:
    print("IndexError", e)

A = torch.tensor([[2.0, 1.0], [1.0, 3.0]], requires_grad=True)
r = torch.linalg.inv_ex(A)
print(r)
print(type(r).__name__, type(r.inverse.grad_fn).__name__, r.info.dtype, r.info.requires_grad)
inv, info = r
inv.sum().backward()
print(A.grad)
S = torch.tensor([[1.0, 2.0], [2.0, 4.0]])
print(torch.linalg.inv_ex(S))
print(torch.linalg.inv_ex(torch.zeros(3, 3)))
B = torch.stack([torch.eye(2), S, torch.tensor([[0.0, 1.0], [1.0, 0.0]])])
print(torch.linalg.inv_ex(B))
print(torch.linalg.inv_ex(A, check_errors=True).info)
for bad in (lambda: torch.linalg.inv_ex(S, check_errors=True),
            lambda: torch.linalg.inv_ex(B, check_errors=True),
            lambda: torch.linalg.inv_ex(torch.zeros(2, 3)),
            lambda: torch.linalg.inv_ex(torch.tensor([[1, 2], [3, 4]]))):
    try:
        bad()
    except RuntimeError as e:
        print(type(e).__name__, e)
