# source: original
# topic: torch.float_power (pow in float64: PowBackward0 / 1 / 2 after ToCopyBackward0) and
#   torch.heaviside (a NotImplemented node: no derivative), with their dtype rules and errors
# compare: exact
# visibility: public
import torch
a = torch.tensor([0.5, 2.0, 3.0], requires_grad=True)
b = torch.tensor([3.0, -1.0, 0.5], requires_grad=True)
for y in [torch.float_power(a, b), torch.float_power(a, 2), torch.float_power(2, b),
          a.float_power(b), a.double().float_power(1.5)]:
    print(y, [type(n).__name__ for n, _ in y.grad_fn.next_functions])
    a.grad = b.grad = None
    y.sum().backward()
    print("  grads", a.grad, b.grad)
print(torch.float_power(torch.tensor([2, 3]), 2), torch.float_power(torch.tensor([2, 3]),
                                                                    torch.tensor([2, -1])))
print(torch.float_power(torch.tensor([1.0, 2.0]), True))
x = torch.tensor([-1.5, 0.0, 2.0, 0.0], requires_grad=True)
v = torch.tensor([0.25], requires_grad=True)
h = torch.heaviside(x, v)
print(h, h.grad_fn.name(), len(h.grad_fn.next_functions))
print(torch.heaviside(torch.tensor([-1, 0, 3]), torch.tensor([7])),
      x.detach().heaviside(torch.tensor(2.0)))
h2 = torch.heaviside(torch.tensor([[0.0], [-1.0]]), v)
print(h2, len(h2.grad_fn.next_functions))
for f in [lambda: h.sum().backward(), lambda: torch.heaviside(x, torch.tensor([1])),
          lambda: torch.heaviside(x, 0.5), lambda: torch.float_power(2, 3),
          lambda: torch.float_power(a, [1.0]), lambda: a.float_power("2")]:
    try:
        f()
    except (RuntimeError, TypeError) as e:
        print(type(e).__name__, e)
