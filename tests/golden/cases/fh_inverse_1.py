# source: original
# topic: grad-fn
# compare: exact
# visibility: public
# Tensor.inverse / torch.inverse / torch.linalg.inv record LinalgInvExBackward0 (saving the
# inverse); its gradient and second derivative; PyTorch's errors for singular, non-square,
# 1-D and integer input.
import torch
A = torch.tensor([[2.0, 1.0], [1.0, 3.0]], requires_grad=True)
B = A.inverse()
print(B)
print(B.grad_fn, B.grad_fn.next_functions)
C = torch.inverse(A)
D = torch.linalg.inv(A)
print(C.grad_fn.name(), D.grad_fn.name())
print(B.grad_fn._saved_inverse)
B.sum().backward()
print(A.grad)
x = torch.tensor([[1.0, 2.0], [2.0, 4.0]])
try:
    print(torch.inverse(x))
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.inverse(torch.ones(2, 3))
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.inverse(torch.tensor([[1, 2], [3, 4]]))
except Exception as e:
    print(type(e).__name__, e)
print(torch.inverse(torch.eye(3).double()))
Y = torch.inverse(torch.tensor([[[1.0, 2.0], [3.0, 4.0]], [[2.0, 0.0], [0.0, 4.0]]]))
print(Y)
E = torch.tensor([[2.0, 1.0], [1.0, 3.0]], requires_grad=True)
g, = torch.autograd.grad(E.inverse().sum(), E, create_graph=True)
print(g)
print(g.grad_fn)
for bad in (torch.zeros(2, 2, 2), torch.zeros(2),
            torch.tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 1.0, 1.0]])):
    try:
        torch.linalg.inv(bad)
    except RuntimeError as e:
        print(type(e).__name__, isinstance(e, torch.linalg.LinAlgError), e)
