# source: original
# topic: printing dual tensors: the tangent= suffix for 1-D, 2-D, 0-d (a number), float64
#   tangents, wrapping, grad_fn and requires_grad beside the tangent
# compare: exact
# visibility: public
import torch
import torch.autograd.forward_ad as fwAD

with fwAD.dual_level():
    print(fwAD.make_dual(torch.tensor([1.0, -2.5]), torch.tensor([0.5, 3.0])))
    m = fwAD.make_dual(torch.arange(12.0).reshape(3, 4), torch.ones(3, 4))
    print(m)
    print(m.sum())
    print(m.mean())
    print(fwAD.make_dual(torch.tensor(2.0), torch.tensor(-1.0)))
    print(fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0], dtype=torch.float64)))
    print(fwAD.make_dual(torch.tensor([1.0, 2.0], dtype=torch.float64), torch.tensor([0.0, 1.0])))
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    d = fwAD.make_dual(x, torch.tensor([[1.0, 0.0], [0.0, 1.0]]))
    print(d)
    print(d * d)
    print((d * d).sum())
    wide = fwAD.make_dual(torch.linspace(-1000.0, 1000.0, 9), torch.linspace(0.0, 1.0, 9))
    print(wide)
    print(str(wide.exp() * 0) == repr(wide.exp() * 0))
