# source: original
# topic: reductions
# compare: exact
# visibility: public
# Gradients of norm for every order, as PyTorch's norm_backward: p=inf shares the gradient
# among the entries at the max (not nan), p<1 masks zeros, 1<p<2 and p>2 scale by
# grad / norm**(p-1); with dim, the unsqueezed norm; and their create_graph graphs.
import torch
def walk(fn, depth=0, out=None):
    out = [] if out is None else out
    if fn is None or depth > 5: return out
    out.append("  " * depth + type(fn).__name__ + str(len(fn.next_functions)))
    for f, _ in fn.next_functions: walk(f, depth + 1, out)
    return out
for p in (float("inf"), 0.5, 1.5, 3, 1):
    x = torch.tensor([[0.5, -2.0, 2.0], [0.0, 0.2, -0.3]], requires_grad=True)
    y = x.norm(p=p)
    y.backward(); print(p, y, x.grad)
    x.grad = None
    y = torch.linalg.vector_norm(x, ord=p, dim=1) 
    y.sum().backward(); print(x.grad)
    if p != 1:
        g, = torch.autograd.grad(x.norm(p=p, dim=1).sum(), x, create_graph=True)
        print("\n".join(walk(g.grad_fn)))
