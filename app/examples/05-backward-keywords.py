# title_en: backward() and its keyword arguments
# title_zh: backward() 的关键字参数
# description: gradient=, retain_graph= and torch.autograd.backward with grad_tensors.
# "def backward(self, gradient=None, retain_graph=None, create_graph=False)":
# the keyword arguments can be passed by name.
import inspect
import torch
params = list(inspect.signature(torch.Tensor.backward).parameters)
print(params)
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * x
y.backward(gradient=torch.tensor([1.0, 1.0]), retain_graph=True, create_graph=False)
print(x.grad)
torch.autograd.backward(y, grad_tensors=torch.tensor([0.5, 0.25]))
print(x.grad)
