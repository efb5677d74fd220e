# source: original
# topic: errors
# compare: exact
# visibility: public
# A numpy array on the left of a tensor: PyTorch declines, and Python or numpy reports it.
import numpy as np
import torch

t = torch.ones(3)
w = torch.tensor([1., 2., 3.], requires_grad=True)
x = np.array([2., 4., 8.])
calls = {
    "x * w": lambda: x * w,
    "x - w": lambda: x - w,
    "x @ w": lambda: x @ w,
    "x ** w": lambda: x ** w,
    "x // t": lambda: x // t,
    "x % t": lambda: x % t,
    "x > t": lambda: x > t,
    "x <= w": lambda: x <= w,
    "[1., 2., 3.] + t": lambda: [1., 2., 3.] + t,
    "[1., 2., 3.] - t": lambda: [1., 2., 3.] - t,
    "(1., 2., 3.) + t": lambda: (1., 2., 3.) + t,
    "x + 1 + t": lambda: x + 1 + t,
    "x / w": lambda: x / w,
    "x / torch.ones(2)": lambda: x / torch.ones(2),
}
for expr, call in calls.items():
    try:
        print(expr, "->", call())
    except (TypeError, RuntimeError, ValueError) as e:
        print(expr, "=>", type(e).__name__, e)
print(x == w, x != w, x / t, np.arange(3) / t, np.float64(2.0) * w, np.float32(0.5) + t)
with torch.no_grad():
    print(x / w)
y = np.ones(3)
y /= t
print(type(y).__name__, y)
y = np.ones(3)
try:
    y *= w
except TypeError as e:
    print(e)
loss = x + w
