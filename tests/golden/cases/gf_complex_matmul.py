# source: original
# topic: gradients of complex matmul, sum and mean
# compare: exact
# visibility: public
import torch

A = torch.tensor([[1 + 1j, 2 - 1j], [0.5j, -1 + 0j]], requires_grad=True)
B = torch.tensor([[1 - 0.5j], [2 + 2j]], requires_grad=True)
C = A @ B
print(C)
C.abs().sum().backward()
print(A.grad)
print(B.grad)
A.grad = B.grad = None
M = torch.tensor([[1.0, 2.0], [3.0, -1.0]], requires_grad=True)
try:
    A @ M
except RuntimeError as e:
    print(e)
D = (A @ M.to(torch.complex64)).mean()
print(D)
D.real.backward()
print(A.grad, M.grad)
v = torch.tensor([1 + 2j, 3 - 1j], requires_grad=True)
(v @ v).imag.backward()
print(v.grad)
