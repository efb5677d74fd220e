# source: original
# topic: the NumPy-style in-place alias methods (multiply_, subtract_, divide_, true_divide_)
# compare: exact
# visibility: public
import torch

a = torch.tensor([1.0, 2.0, 3.0])
a.multiply_(2)
print(a)
a.subtract_(1)
print(a)
a.subtract_(torch.tensor(1.0), alpha=2)
print(a)
a.divide_(2)
print(a)
a.divide_(torch.tensor([1.0, 2.0, 4.0]), rounding_mode='floor')
print(a)
a.true_divide_(4)
print(a, a._version)

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 1
print(y.multiply_(3))
print(y.subtract_(1, alpha=2))
print(y.divide_(2))
print(y.divide_(2, rounding_mode=None))
print(y.true_divide_(2))
y.sum().backward()
print(x.grad)

for label, f in [("multiply_", lambda: x.multiply_(2)), ("subtract_", lambda: x.subtract_(2)),
                 ("divide_", lambda: x.divide_(2)), ("true_divide_", lambda: x.true_divide_(2))]:
    try:
        f()
    except RuntimeError as e:
        print(label, type(e).__name__, e)

i = torch.tensor([1, 2])
i.multiply_(3)
print(i)
try:
    i.true_divide_(2)
except RuntimeError as e:
    print(e)
