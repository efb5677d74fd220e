# source: original
# topic: forward-mode tangents with PyTorch's own formulas: var and std (var_jvp), the vector
#   norm, atan2, mse_loss, max and clamp, with primals that do and do not require grad
# compare: exact
# visibility: public
import torch
import torch.nn.functional as F
import torch.autograd.forward_ad as fwAD

X = torch.tensor([[0.3, -1.2, 2.0, 0.1], [1.5, 0.7, -0.4, 2.2]])
T = torch.tensor([[1.0, 0.5, -0.25, 0.0], [0.0, 2.0, 1.0, -1.5]])
Y = torch.tensor([[1.0, 2.0, -1.0, 0.5], [0.25, -3.0, 1.0, 2.0]])
for requires_grad in (False, True):
    with fwAD.dual_level():
        x = fwAD.make_dual(X.clone().requires_grad_(requires_grad), T)
        for name, out in [("var", x.var()), ("var1", x.var(1)), ("std", x.std(0)),
                          ("norm", x.norm()), ("norm1", torch.linalg.vector_norm(x, dim=1)),
                          ("atan2", torch.atan2(x, Y)), ("atan2r", torch.atan2(Y, x)),
                          ("mse", F.mse_loss(x, Y)), ("mse_sum", F.mse_loss(Y, x, reduction="sum")),
                          ("max", x.max()), ("clamp", x.clamp(-1.0, 1.0))]:
            t = fwAD.unpack_dual(out).tangent
            print(name, t.tolist(), None if t.grad_fn is None else t.grad_fn.name())
