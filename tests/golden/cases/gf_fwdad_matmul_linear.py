# source: original
# topic: forward-mode tangents through @ (matrix-matrix, matrix-vector, dot, batched),
#   mm, F.linear with and without bias, addmm
# compare: exact
# visibility: public
import torch
import torch.nn.functional as F
import torch.autograd.forward_ad as fwAD

A = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]])
TA = torch.tensor([[1.0, 0.0, 0.5], [0.0, 2.0, -1.0]])
B = torch.tensor([[1.0, 2.0], [-1.0, 0.5], [0.25, 3.0]])
TB = torch.tensor([[0.0, 1.0], [1.0, 0.0], [0.5, 0.5]])
v = torch.tensor([1.0, -2.0, 0.5])
with fwAD.dual_level():
    a = fwAD.make_dual(A, TA)
    b = fwAD.make_dual(B, TB)
    print(a @ b)
    print(A @ b)
    print(a @ B)
    print(a @ v)
    print(fwAD.make_dual(v, torch.tensor([0.0, 1.0, 0.0])) @ v)
    print(torch.mm(a, b))
    batch = fwAD.make_dual(torch.stack([A, A * 2]), torch.stack([TA, -TA]))
    print(batch @ B)
    bias = torch.tensor([0.1, -0.2])
    print(F.linear(a, B.t(), bias))
    print(F.linear(a, b.t()))
    print(torch.addmm(bias, a, b))
    print(a.t())
    print(a.T @ a)
