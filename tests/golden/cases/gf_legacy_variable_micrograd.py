# source: original
# topic: autograd
# compare: exact
# visibility: public
# The legacy spellings of old tutorials and of micrograd's lecture: Variable(...,
# requires_grad=True), torch.Tensor([...]).double() leaves, tanh of a neuron, .data.item().
import torch
x1 = torch.Tensor([2.0]).double()
x1.requires_grad = True
x2 = torch.Tensor([0.0]).double()
x2.requires_grad = True
w1 = torch.Tensor([-3.0]).double(); w1.requires_grad = True
w2 = torch.Tensor([1.0]).double(); w2.requires_grad = True
b = torch.Tensor([6.8813735870195432]).double(); b.requires_grad = True
n = x1*w1 + x2*w2 + b
o = torch.tanh(n)
print(o.data.item())
o.backward()
print('---')
print('x2', x2.grad.item())
print('w2', w2.grad.item())
print('x1', x1.grad.item())
print('w1', w1.grad.item())
print(o)
print(x1)
a = torch.Tensor([[1, 2], [3, 4]])
print(a, a.dtype)
print(torch.Tensor(2, 3).shape)
from torch.autograd import Variable
x = Variable(torch.ones(2, 2), requires_grad=True)
print(x)
y = x + 2
print(y)
print(y.grad_fn)
z = y * y * 3
out = z.mean()
out.backward()
print(x.grad)
print(x.data)
v = Variable(torch.tensor([1.0, 2.0]))
print(v.requires_grad, type(v))
