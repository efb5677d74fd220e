# source: original
# topic: higher-order
# compare: exact
# visibility: public
# Second-derivative graphs of backwards PyTorch writes as composites: silu's (1 + x * (1 - s),
# add.Scalar and a filled-tensor subtraction), sqrt's grad / (result * 2) (mul.Scalar) and
# logsumexp's unsqueezed grad and result broadcast against self (no expand).
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


x = torch.tensor([[0.5, -1.3, 2.0], [0.1, 0.2, 0.3]], requires_grad=True)
cases = [
    ("logsumexp dim 1", lambda x: torch.logsumexp(x, 1), False),
    ("logsumexp dims (0, 1)", lambda x: torch.logsumexp(x, (0, 1)), False),
    ("logsumexp keepdim", lambda x: torch.logsumexp(x, 0, keepdim=True), False),
    ("logsumexp weighted", lambda x: x.logsumexp(-1) * torch.tensor([1.0, 3.0]), False),
    ("sqrt and silu", lambda x: x.sqrt().sum() + F.silu(x).sum(), True),
    ("silu", lambda x: F.silu(x), True),
]
for name, f, values in cases:
    g, = torch.autograd.grad(f(x.abs()).sum(), x, create_graph=True)
    h, = torch.autograd.grad((g * g).sum(), x)
    print(name, g.tolist() if values else "")
    print("\n".join(walk(g.grad_fn)))
    if values:
        print(" second", h.tolist())
