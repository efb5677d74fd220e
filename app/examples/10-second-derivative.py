# title_en: A second derivative with create_graph
# title_zh: 用 create_graph 求二阶导数
# description: torch.autograd.grad with create_graph=True makes the gradient differentiable again.
import torch as t
from torch.autograd import Variable as V

# ----key function----
#grad_x =t.autograd.grad(y, x, create_graph=True)
#grad_grad_x = t.autograd.grad(grad_x[0],x)
 
x = V(t.Tensor([4]), requires_grad=True)
y = x ** 2 
 
grad_x = t.autograd.grad(y, x, create_graph=True)
print(grad_x)  # dy/dx = 2*x = 8
 
grad_2x = t.autograd.grad(grad_x[0],x)
print(grad_2x) # d(2*x)/dx = 2
