# title_en: A Jacobian, one row at a time
# title_zh: 逐行求雅可比矩阵
# description: backward with one-hot vectors and retain_graph=True collects the rows of J, then x.grad accumulates.
# The exercise with retain_graph=True on the second call too, so the last
# backward works and adds both rows onto the second row left in x.grad.
import torch
from torch.autograd import Variable

x = Variable(torch.Tensor([2,3]),requires_grad=True)
k=Variable(torch.zeros(2))
k[0]=x[0]**2+3*x[1]
k[1]=2*x[0]+x[1]**2
j = torch.zeros(2, 2)
k.backward(torch.FloatTensor([1, 0]), retain_graph=True)
j[0] = x.grad.data
x.grad.data.zero_()
k.backward(torch.FloatTensor([0, 1]), retain_graph=True)
j[1] = x.grad.data
print(j)
k.backward(torch.ones_like(k),retain_graph=True)
print(x.grad)
print(j.sum(0))
