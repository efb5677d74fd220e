# source: original
# topic: grad-fn
# compare: exact
# visibility: public
# F.linear records different nodes by input rank and bias: Addmm, View around Addmm, Mm.
import torch
import torch.nn.functional as F


def tree(fn, depth=0):
    if fn is None:
        return "None"
    kids = ", ".join(tree(f, depth + 1) for f, _ in fn.next_functions)
    return f"{type(fn).__name__}[{kids}]"


w = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], requires_grad=True)
b = torch.tensor([0.1, -0.2], requires_grad=True)
for shape in [(3,), (2, 3), (2, 2, 3)]:
    n = 1
    for size in shape:
        n *= size
    x = torch.arange(n, dtype=torch.float32).reshape(shape) / 10
    y = F.linear(x, w, b)
    print(shape, tree(y.grad_fn))
    print(y)
    print(tree(F.linear(x, w).grad_fn))
xr = torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, 0.0]], requires_grad=True)
y = F.linear(xr, w, b)
print(tree(y.grad_fn))
print(y.grad_fn._saved_alpha, y.grad_fn._saved_beta, y.grad_fn._saved_mat1_sym_sizes,
      y.grad_fn._saved_mat2_sym_sizes)
(y * torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
print(w.grad)
print(b.grad)
print(xr.grad)
print(tree(F.linear(xr.detach(), w.detach(), b).grad_fn))
z = F.linear(torch.ones(4, 3, requires_grad=True), w.detach(), b.detach())
print(tree(z.grad_fn))
