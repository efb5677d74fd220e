# source: original
# topic: autograd.grad and autograd.backward with the same output listed twice, or an output and
#   one it was computed from
# compare: exact
# visibility: public
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
w = (x * x).sum()
print(torch.autograd.grad([w, w], [x], retain_graph=True))
print(torch.autograd.grad([w, w * 2, w], x, retain_graph=True))
print(torch.autograd.grad([w, w], x, grad_outputs=[torch.tensor(1.0), torch.tensor(3.0)],
                          retain_graph=True))
torch.autograd.backward([w, w], retain_graph=True)
print(x.grad)

y = x * 3
z = y.sum()
x.grad = None
torch.autograd.backward([z, y], [None, torch.ones(2)])
print(x.grad)
