# source: original
# topic: errors
# compare: exact
# visibility: public
# torch.broadcast_tensors expands to the common shape; gradients flow back summed.
import torch
x = torch.tensor([[1.0], [2.0]], requires_grad=True)
y = torch.tensor([10.0, 20.0, 30.0])
a, b = torch.broadcast_tensors(x, y)
print(a)
print(b, b.grad_fn)
(a * b).sum().backward()
print(x.grad)
c, = torch.broadcast_tensors(x)
print(c is x)
print(torch.broadcast_shapes((2, 1), (3,), (1, 1, 1)))
try:
    torch.broadcast_tensors(torch.ones(2), torch.ones(3))
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.broadcast_shapes((2,), (3,))
except Exception as e:
    print(type(e).__name__, e)
