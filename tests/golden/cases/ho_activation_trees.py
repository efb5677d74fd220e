# source: original
# topic: higher-order
# compare: exact
# visibility: public
# The graphs create_graph=True builds through activations and softmax: PyTorch's dedicated
# derivative kernels (SoftplusBackwardBackward0, EluBackwardBackward0, GeluBackwardBackward0,
# LogSigmoidBackwardBackward0, HardtanhBackwardBackward0, SoftmaxBackwardDataBackward0,
# LogSoftmaxBackwardDataBackward0, NllLossBackwardBackward0), two levels of derivatives.
# (gelu's first derivatives differ from PyTorch's vectorised erf in the last bits: unprinted.)
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


w = torch.tensor([1.0, 2.0, 3.0, 4.0])
cases = [
    ("softplus", lambda x: F.softplus(x), True),
    ("softplus beta=2", lambda x: F.softplus(x, beta=2.0, threshold=3.0), True),
    ("elu", lambda x: F.elu(x), True),
    ("elu alpha=0.5", lambda x: F.elu(x, alpha=0.5) * w, True),
    ("gelu", lambda x: F.gelu(x), False),
    ("gelu tanh", lambda x: F.gelu(x, approximate="tanh"), None),
    ("logsigmoid", lambda x: F.logsigmoid(x), True),
    ("hardtanh", lambda x: F.hardtanh(x) * x, True),
    ("softmax", lambda x: F.softmax(x, dim=0) * w, True),
    ("log_softmax", lambda x: F.log_softmax(x, dim=0) * w, True),
    ("cross_entropy", lambda x: F.cross_entropy(x.view(2, 2), torch.tensor([1, 0])), True),
]
for name, f, values in cases:
    x = torch.tensor([0.5, -1.3, 2.0, 0.1], requires_grad=True)
    g, = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    h, = torch.autograd.grad((g * w).sum(), x, create_graph=True)
    print(name, g.tolist() if values else "")
    print("\n".join(walk(g.grad_fn)))
    if values is not None:      # (gelu tanh's third-order graph and last bits: not pinned)
        print(" second", h.tolist())
        print("\n".join(walk(h.grad_fn)[:8]))
y = F.logsigmoid(torch.tensor([1.0, -2.0], requires_grad=True))
print(y.grad_fn._saved_buffer, type(y.grad_fn).__name__)
g, = torch.autograd.grad(y.sum(), y.grad_fn._saved_self, create_graph=True)
print(g.grad_fn._saved_buffer, g.grad_fn._saved_grad_output)
g, = torch.autograd.grad(F.elu(y).sum(), y, create_graph=True)
print(g.grad_fn._saved_alpha, g.grad_fn._saved_is_result, g.grad_fn._saved_scale)
