# source: original
# topic: dual tensors and reverse mode together: make_dual of a leaf that requires grad
#   (ViewBackward0), the tangent's own grad_fn, backward through ops on duals to the primal,
#   the primal view's grad_fn
# compare: exact
# visibility: public
import torch
import torch.autograd.forward_ad as fwAD

x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.ones(2, 2))
    print(d)
    print(d.grad_fn.name(), d.grad_fn.next_functions[0][0].name())
    y = (d * d).sum()
    print(y)
    p, t = fwAD.unpack_dual(y)
    print(p, t)
    print(p.grad_fn, p.grad_fn.name(), p.grad_fn.next_functions[0][0].name())
    plain = fwAD.unpack_dual(x).primal
    print(plain, plain is x, plain.grad_fn.name())
    print(fwAD.unpack_dual(d.sin()).tangent)
    print(fwAD.unpack_dual(d / 3.0))
    print(fwAD.unpack_dual(d * 3.0).tangent)
    print(fwAD.unpack_dual(d + 1).tangent)
    y.backward()
    print(x.grad)
    w = torch.ones(2, requires_grad=True)
    z = fwAD.make_dual(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), torch.ones(2, 2))
    print(fwAD.unpack_dual(z @ w).tangent, fwAD.unpack_dual(z * w).tangent)
    (z @ w).sum().backward()
    print(w.grad)
print(x.grad)
