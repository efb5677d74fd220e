# source: original
# topic: saved-tensors
# compare: exact
# visibility: public
# A Python number in an op is a "wrapped number": the op computes with it in the tensor's
# dtype, but the node saves it as it came, so grad_fn._saved_other prints tensor(3) (int64),
# tensor(3.5000, dtype=torch.float64) or tensor(True), whatever the other operand's dtype.
# Also add/sub's alpha, 2 / x (a MulBackward0 of the reciprocal), in-place mul_/div_ and
# saved values freed by backward.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
d = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
cases = [("x * 3", lambda: x * 3), ("3 * x", lambda: 3 * x), ("x * 3.5", lambda: x * 3.5),
         ("x * 0.1", lambda: x * 0.1), ("x * -0.0", lambda: x * -0.0),
         ("x * True", lambda: x * True), ("x * 2**62", lambda: x * 2 ** 62),
         ("x * 1e300", lambda: x * 1e300), ("x / 2", lambda: x / 2),
         ("x / 2.5", lambda: x / 2.5), ("2 / x", lambda: 2 / x), ("x.mul(3)", lambda: x.mul(3)),
         ("torch.mul(x, 4)", lambda: torch.mul(x, 4)), ("x.div(8)", lambda: x.div(8)),
         ("d * 3", lambda: d * 3), ("d / 0.5", lambda: d / 0.5),
         ("x * tensor(3)", lambda: x * torch.tensor(3)),
         ("x * tensor(3.)", lambda: x * torch.tensor(3.0)),
         ("(x * 1).mul_(3)", lambda: (x * 1).mul_(3)),
         ("(x * 1).div_(2.0)", lambda: (x * 1).div_(2.0))]
for name, f in cases:
    y = f()
    o = y.grad_fn._saved_other
    print(name, type(y.grad_fn).__name__, o, o.dtype, o.shape, o.requires_grad, y)
for name, y in [("x + 2", x + 2), ("torch.add(x, 2, alpha=3)", torch.add(x, 2, alpha=3)),
                ("x - 2", x - 2), ("2 - x", 2 - x), ("x.sub(2, alpha=2)", x.sub(2, alpha=2)),
                ("x ** 2", x ** 2), ("x ** 0.5", x ** 0.5), ("2 ** x", 2 ** x)]:
    fn = y.grad_fn
    print(name, type(fn).__name__, y)
print((x ** 2).grad_fn._saved_exponent, (x ** 0.5).grad_fn._saved_exponent,
      (2 ** x).grad_fn._saved_self, (2.5 ** x).grad_fn._saved_self)
print((x + 2).grad_fn._saved_alpha, torch.add(x, 2, alpha=3).grad_fn._saved_alpha)
y = x * 3
print(y.grad_fn._saved_other, y.grad_fn._saved_self)
y.sum().backward(retain_graph=True)
print(x.grad, y.grad_fn._saved_other)
y.sum().backward()
print(x.grad)
try:
    print(y.grad_fn._saved_other)
except RuntimeError as e:
    print("RuntimeError", e)
w = torch.tensor([3.0, 4.0], requires_grad=True)
y = x * w
print(y.grad_fn._saved_other, y.grad_fn._saved_self)
