# source: original
# topic: errors
# compare: exact
# visibility: public
# detach_() on a view raises (use detach()); autograd.grad with no inputs raises.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
for view in (y.view(2), y[0:1], x.view(2), torch.zeros(3).view(3)):
    try:
        view.detach_()
    except RuntimeError as e:
        print(type(e).__name__, e)
for inputs in ([], ()):
    try:
        torch.autograd.grad(y.sum(), inputs)
    except RuntimeError as e:
        print(type(e).__name__, e)
w = y.detach_()
print(w, y.requires_grad, y.is_leaf, y.grad_fn)
