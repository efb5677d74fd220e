# source: original
# topic: higher-order
# compare: exact
# visibility: public
# Second-derivative graphs of tensor ** tensor (PyTorch's pow_backward: WhereBackward0 with
# exponent - 1 as SubBackward1), binary_cross_entropy_with_logits (grad.div_(numel):
# DivBackward1), norm (masked_fill of self / norm) and std / var (Tensor-by-Scalar products,
# MulBackward1, and the mean over everything, MeanBackward0).
import torch
import torch.nn.functional as F


def walk(fn, depth=0, out=None):
    out = [] if out is None else out
    if fn is None or depth > 5:
        return out
    out.append("  " * depth + type(fn).__name__ + " " + str(len(fn.next_functions)))
    for f, _ in fn.next_functions:
        walk(f, depth + 1, out)
    return out


t = torch.tensor([0.0, 1.0, 0.3, 1.0])
cases = [
    ("|x| ** (x + 0.5)", lambda x: x.abs() ** (x + 0.5)),
    ("base ** x", lambda x: torch.tensor([1.5, 2.0, 0.0, 3.0]) ** x),
    ("x ** zeros", lambda x: x ** torch.tensor([0.0, 1.0, 2.0, 0.0])),
    ("bce logits mean", lambda x: F.binary_cross_entropy_with_logits(x, t)),
    ("bce logits sum", lambda x: F.binary_cross_entropy_with_logits(x, t, reduction="sum")),
    ("bce logits weight", lambda x: F.binary_cross_entropy_with_logits(
        x, t, weight=torch.tensor([1.0, 2.0, 1.0, 0.5]))),
    ("norm", lambda x: torch.norm(x)),
    ("norm p=3", lambda x: x.norm(p=3)),
    ("norm dim", lambda x: x.view(2, 2).norm(dim=1)),
    ("std", lambda x: x.std()),
    ("var", lambda x: x.var() * x),
    ("std dim", lambda x: x.view(2, 2).std(dim=1)),
    ("var dim keepdim", lambda x: x.view(2, 2).var(dim=0, keepdim=True) * x.view(2, 2)),
]
for name, f in cases:
    x = torch.tensor([0.5, -1.3, 2.0, 0.1], requires_grad=True)
    g, = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    h, = torch.autograd.grad((g * g).sum(), x)
    print(name, g.tolist())
    print("\n".join(walk(g.grad_fn)))
    print(" second", h.tolist())
