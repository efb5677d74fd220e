# source: original
# topic: grad_fn
# compare: exact
# visibility: public
# The determinant: torch.det, torch.linalg.det and Tensor.det, what they save and their grads.
import torch

A = torch.tensor([[2., 1., 0.], [1., 3., 1.], [0., 1., 4.]], requires_grad=True)
d = torch.det(A)
print(d, d.grad_fn.name(), d.grad_fn._saved_A is A, d.grad_fn._saved_result)
print(d.grad_fn._saved_LU, d.grad_fn._saved_pivots)
d.backward()
print(A.grad)                        # det(A) * A^-T: the cofactor matrix
B = torch.tensor([[4., 3.], [6., 3.]], requires_grad=True)
e = torch.linalg.det(B.t())          # a transposed view is factored as it is
print(e, e.grad_fn._saved_pivots)
(2 * e).backward()
print(B.grad)
C = torch.tensor([[[1., 2.], [3., 4.]], [[0., 1.], [1., 0.]], [[2., 0.], [0., 0.5]]],
                 requires_grad=True)
dets = C.det()
print(dets)
dets.sum().backward()
print(C.grad)
S = torch.tensor([[1., 2.], [2., 4.]], requires_grad=True)   # singular: a zero gradient
s = S.det()
s.backward()
print(s, S.grad)
print(torch.det(torch.tensor([[5.]])), torch.det(torch.zeros(0, 0)))
print(torch.det(torch.eye(3, dtype=torch.float64)), torch.det(torch.eye(2).expand(2, 2, 2)))
g, = torch.autograd.grad(torch.det(A), A, create_graph=True)
print(g.detach().round(decimals=4) + 0.0, g.requires_grad)
print(torch.det(torch.tensor([[3., 1.], [1., 2.]])).item())
# area scaling: the determinant of a 2-D linear map
theta = torch.tensor(0.5, requires_grad=True)
rot = torch.stack([torch.stack([theta.cos(), -theta.sin()]),
                   torch.stack([theta.sin(), theta.cos()])]) * 2
area = rot.det()
area.backward()
print(round(area.item(), 4), round(theta.grad.item(), 4))
