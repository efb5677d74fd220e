# source: original
# topic: jacobian
# compare: exact
# visibility: public
# torch.autograd.functional: jacobian, hessian, vjp, jvp, hvp, vhp and their shapes.
import torch
from torch.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp

W = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
print(jacobian(lambda x: x ** 2, torch.tensor([1.0, 2.0])))
print(jacobian(lambda x: torch.tanh(W @ x), torch.tensor([0.1, -0.2])))
print(jacobian(lambda x, y: (x * y, x + y), (torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))))
print(jacobian(lambda x: x.sum(), torch.tensor([1.0, 2.0])))
print(jacobian(lambda x: x * 0 + 1, torch.tensor([1.0, 2.0])))
print(jacobian(lambda x: x ** 2, torch.tensor(3.0)))
print(jacobian(lambda x: x ** 2, torch.ones(2, 2)).shape)
print(jacobian(lambda x: x ** 2, torch.tensor([1.0, 2.0]), create_graph=True))
print(hessian(lambda x: (x ** 3).sum(), torch.tensor([1.0, 2.0])))
print(hessian(lambda x: torch.sigmoid(W @ x).sum(), torch.tensor([0.1, -0.2])))
pair = (torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))
print(hessian(lambda x, y: (x ** 2 * y).sum(), pair))
print(vjp(lambda x: x ** 2, torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0])))
print(vjp(lambda x: x.sum() * 2, torch.tensor([1.0, 2.0])))
print(vjp(lambda x: x ** 2, torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0]), create_graph=True))
print(jvp(lambda x: x ** 2, torch.tensor([1.0, 2.0]), torch.tensor([1.0, 0.0])))
print(jvp(lambda x, y: x * y.sum(), (torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])),
          (torch.tensor([1.0, 1.0]), torch.tensor([0.0, 1.0]))))
print(hvp(lambda x: (x ** 3).sum(), torch.tensor([1.0, 2.0]), torch.tensor([1.0, 0.0])))
print(vhp(lambda x: (x ** 3).sum(), torch.tensor([1.0, 2.0]), torch.tensor([1.0, 0.0])))
x = torch.tensor([1.0, 2.0], requires_grad=True)
print(jacobian(lambda t: t ** 2, x), x.grad)
