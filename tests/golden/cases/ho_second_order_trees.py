# The graph a second derivative builds: x ** p differentiates through PyTorch's
# Tensor-times-Scalar (MulBackward1) and pow, abs through sgn (SgnBackward0).
import torch
x = torch.tensor([0.5, -1.0], requires_grad=True)
for p in (2, 3, 0.5, -1, 1, 2.5):
    y = (x.abs() + 0.1) ** p if p in (0.5, 2.5, -1) else x ** p
    g, = torch.autograd.grad(y.sum(), x, create_graph=True)
    def walk(fn, depth=0, out=None):
        out = [] if out is None else out
        if fn is None or depth > 4: return out
        out.append("  " * depth + type(fn).__name__ + str(len(fn.next_functions)))
        for f, _ in fn.next_functions: walk(f, depth + 1, out)
        return out
    print(p, g.tolist()); print("\n".join(walk(g.grad_fn)))
m = torch.tensor([2.0, 3.0], requires_grad=True)
z = m * 3
