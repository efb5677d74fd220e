# source: original
# topic: torch.erfinv, Tensor.erfinv(_) and torch.special.erfinv: values, ErfinvBackward0, gradients
# compare: exact
# visibility: public
# The inverse error function at the centre, near and at +-1 and beyond (nan), on integers
# (the default float), its saved self, the gradient sqrt(pi) / 2 * exp(erfinv(x) ** 2), the
# nodes create_graph records and the second derivative, the in-place method, float64, and
# PyTorch's errors for a number, a complex tensor and an integer one in place (erf_ too).
import torch
import torch.special

x = torch.tensor([-0.9, -0.5, 0.0, 0.25, 0.75, 0.99], requires_grad=True)
y = torch.erfinv(x)
print(y)
print(y.grad_fn, y.grad_fn.name(), y.grad_fn._saved_self)
print(torch.special.erfinv(x), x.erfinv())
print(torch.erfinv(torch.tensor([1.0, -1.0, 1.5, -2.0, float("nan"), -0.0])))
print(torch.erfinv(torch.tensor([1, 0, -1])), torch.special.erfinv(torch.tensor(True)))
(g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g)
print(g.grad_fn, [type(n).__name__ if n else None for n, _ in g.grad_fn.next_functions])
print([type(n).__name__ for n, _ in g.grad_fn.next_functions[0][0].next_functions])
(gg,) = torch.autograd.grad(g.sum(), x)
print(gg)
e = torch.tensor([1.0, -1.0, 0.5], requires_grad=True)
torch.erfinv(e).sum().backward()
print(e.grad)
d = torch.tensor([[0.1, -0.3], [0.6, 0.95]], dtype=torch.float64, requires_grad=True)
z = d * 2 - 1
z.erfinv_()
print(z, z.grad_fn)
z.sum().backward()
print(d.grad)
print(torch.special.erf(torch.special.erfinv(torch.tensor([0.2, -0.7]))))
for bad in (lambda: torch.erfinv(0.5), lambda: torch.special.erfinv([0.5]),
            lambda: torch.erfinv(torch.tensor([0.5j])),
            lambda: torch.tensor([0.5j], dtype=torch.complex128).erfinv_(),
            lambda: torch.tensor([1, 0]).erfinv_(), lambda: torch.tensor([1, 0]).erf_()):
    try:
        bad()
    except (TypeError, NotImplementedError, RuntimeError) as exc:
        print(type(exc).__name__, exc)
