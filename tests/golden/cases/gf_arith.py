# source: original
# topic: grad-fn
# compare: exact
# visibility: public
# The grad_fn class of every arithmetic operator, tensor and scalar, plain and reflected, and
# the names its next_functions point at.
import torch


def names(t):
    return [(None if f is None else type(f).__name__, i) for f, i in t.grad_fn.next_functions]


x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
c = torch.tensor([5.0, 6.0])
for label, y in [("x + w", x + w), ("x + 2", x + 2), ("2 + x", 2 + x), ("x + c", x + c),
                 ("c + x", c + x), ("x - w", x - w), ("x - 2", x - 2), ("2 - x", 2 - x),
                 ("x * w", x * w), ("x * 2", x * 2), ("2 * x", 2 * x), ("x * c", x * c),
                 ("x / w", x / w), ("x / 2", x / 2), ("2 / x", 2 / x), ("c / x", c / x),
                 ("x ** 2", x ** 2), ("x ** w", x ** w), ("2 ** x", 2 ** x), ("x ** 0.5", x ** 0.5),
                 ("-x", -x), ("x + x", x + x), ("(x * w) * x", (x * w) * x)]:
    print(label, type(y.grad_fn).__name__, names(y))
    print(" ", y)
