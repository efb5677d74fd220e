# title_en: The derivative of x cubed
# title_zh: x 的三次方的导数
# description: The smallest graph: one leaf, one PowBackward0, dy/dx = 3x^2 = 12.
import torch
from torch.autograd import Variable

x = torch.Tensor([2])
# tensor 变成Variable
x = Variable(x,requires_grad=True)

y=x**3

y.backward()
print(x.grad)
print(x, y)
print(type(x).__name__, isinstance(x, torch.Tensor))
