# source: original
# topic: autograd
# compare: exact
# visibility: public
# In-place binary math: xlogy_ (tensor or number, and torch.xlogy_), atan2_ / arctan2_,
# float_power_ (only into a float64 tensor) and heaviside_ (no derivative): the node each
# leaves on a non-leaf, version counters, gradients through them, and PyTorch's errors.
import torch

x = torch.tensor([0.0, 1.0, 2.0, 3.0], requires_grad=True)
y = torch.tensor([0.5, 2.0, 1.5, 4.0], requires_grad=True)

z = x * 1
print(z._version, z.xlogy_(y) is z, z._version, z, z.grad_fn.name())
z.sum().backward()
print(x.grad, y.grad)
x.grad = y.grad = None
print(torch.tensor([0.0, 2.0]).xlogy_(3), torch.xlogy_(torch.tensor([1.0, 2.0]), 2.5))

z = x * 2
z.atan2_(y)
print(z, z.grad_fn.name(), [type(f).__name__ for f, _ in z.grad_fn.next_functions])
z.sum().backward()
print(x.grad, y.grad)
x.grad = y.grad = None
print(torch.tensor([1.0, -1.0]).arctan2_(torch.tensor([-1.0, -1.0])))

d = x.double() * 1
d.float_power_(2)
print(d, d.grad_fn.name())
d.sum().backward()
print(x.grad)
x.grad = None
e = torch.tensor([2.0, 0.5, 1.0, 3.0], requires_grad=True)
d = x.double() + 1
d.float_power_(e)
print(d, d.grad_fn.name(), [type(f).__name__ for f, _ in d.grad_fn.next_functions])
d.sum().backward()
print(x.grad, e.grad)
print(torch.tensor([2.0, 3.0], dtype=torch.float64).float_power_(torch.tensor(3)))

h = x - 1
h.heaviside_(torch.tensor([0.5]))
print(h, h.grad_fn.name())
try:
    h.sum().backward()
except RuntimeError as err:
    print("RuntimeError", err)
print(torch.tensor([-2, 0, 5]).heaviside_(torch.tensor([7])))

for bad in [lambda: x.xlogy_(y), lambda: torch.tensor([1, 2]).xlogy_(2.0),
            lambda: torch.tensor([1.0, 2.0]).xlogy_(torch.ones(3)),
            lambda: torch.tensor([1.0, 2.0]).atan2_(torch.ones(2, 2)),
            lambda: torch.tensor([1.0, 2.0]).atan2_(2.0),
            lambda: torch.tensor([1.0, 2.0]).float_power_(2),
            lambda: torch.tensor([1, 2]).float_power_(torch.tensor([2.0, 2.0])),
            lambda: torch.tensor([1.0, 2.0]).heaviside_(0.5),
            lambda: torch.tensor([1.0, 2.0]).heaviside_(torch.tensor([1], dtype=torch.int64))]:
    try:
        bad()
    except (RuntimeError, TypeError) as err:
        print(type(err).__name__, err)
