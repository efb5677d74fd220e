# source: original
# topic: grad-fn
# compare: exact
# visibility: public
# torch.div with a rounding_mode records DivBackward2 (even rounding_mode=None); its floor and
# trunc results are step functions, so the gradient is zeros. `//` and torch.floor_divide have
# no derivative at all: a NotImplemented node that raises in backward. remainder (%) and fmod
# differentiate: grad to self, -grad * floor(self / other) (trunc for fmod) to a tensor other.
import torch

x = torch.tensor([1.5, -2.5, 3.7, -0.3], requires_grad=True)
y = torch.tensor([2.0, 1.5, -1.2, 0.7], requires_grad=True)


def run(label, f, *ins):
    z = f()
    print(label, z, type(z.grad_fn).__name__, z.grad_fn.name())
    print("  next", [None if n is None else type(n).__name__ for n, _ in z.grad_fn.next_functions])
    try:
        print("  grads", torch.autograd.grad(z.sum(), ins))
    except RuntimeError as e:
        print("  RuntimeError:", e)


run("floor", lambda: torch.div(x, y, rounding_mode="floor"), x, y)
run("trunc", lambda: x.div(y, rounding_mode="trunc"), x, y)
run("None", lambda: torch.div(x, y, rounding_mode=None), x, y)
run("plain", lambda: torch.div(x, y), x, y)
run("floor 2", lambda: torch.div(x, 2, rounding_mode="floor"), x)
run("trunc 2.", lambda: x.div(2.0, rounding_mode="trunc"), x)
run("None 2", lambda: x.div(2, rounding_mode=None), x)
run("number / x", lambda: torch.div(2, x, rounding_mode="floor"), x)
run("x // 2", lambda: x // 2, x)
run("x // y", lambda: x // y, x, y)
run("7 // x", lambda: 7 // x, x)
run("floor_divide", lambda: torch.floor_divide(x, y), x, y)
run("Tensor.floor_divide", lambda: x.floor_divide(y.detach()), x)
run("remainder", lambda: torch.remainder(x, y), x, y)
run("x % 2", lambda: x % 2, x)
run("5 % x", lambda: 5 % x, x)
run("x.remainder(y)", lambda: x.remainder(y.detach()), x)
run("fmod", lambda: torch.fmod(x, y), x, y)
run("fmod 2", lambda: torch.fmod(x, 2), x)
run("x.fmod(y)", lambda: x.fmod(y), x, y)

z = torch.div(x, 2, rounding_mode="floor")
print(z.grad_fn._saved_rounding_mode, z.grad_fn._saved_other, z.grad_fn._saved_self)
z = torch.div(x, y, rounding_mode="trunc")
print(z.grad_fn._saved_rounding_mode, z.grad_fn._saved_other, z.grad_fn._saved_self)
print(torch.div(x, y, rounding_mode=None).grad_fn._saved_rounding_mode)
z = torch.remainder(x, y.detach())
print(z.grad_fn._saved_self, z.grad_fn._saved_other)
z = torch.fmod(x, y)
print(z.grad_fn._saved_self, z.grad_fn._saved_other)

# the zeros are constants: nothing to differentiate again, even with create_graph
g, = torch.autograd.grad(torch.div(x, y, rounding_mode="floor").sum(), x, create_graph=True)
print(g, g.requires_grad, g.grad_fn)
g, = torch.autograd.grad(torch.remainder(x, y).sum(), y, create_graph=True)
print(g, g.grad_fn.name())
try:
    (x // 2).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
print(x.grad)

# values and dtypes: integers, zero divisors, signed zeros
a = torch.tensor([5, -5])
print(a // torch.tensor([2, 2]), torch.div(a, 2, rounding_mode="trunc"), a // 2.5)
print(a.div(2, rounding_mode=None), torch.remainder(a, 3), torch.fmod(a, 3), torch.fmod(a, 3.0))
print(torch.div(x, 0.0, rounding_mode="floor"), torch.div(x, 0.0, rounding_mode="trunc"))
print(5 % torch.tensor([2.5, -2.5, 1.0]), torch.tensor([-5.0, 5.0]) % 2.5)
d = torch.tensor([1.5, -2.5], dtype=torch.float64, requires_grad=True)
print(d // 2, torch.div(d, 2, rounding_mode="floor"))
try:
    torch.div(x, y, rounding_mode="round")
except RuntimeError as e:
    print("RuntimeError:", e)
