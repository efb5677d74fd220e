# source: original
# topic: the NumPy-style alias methods (multiply, subtract, divide, true_divide, negative, absolute)
# compare: exact
# visibility: public
import torch

x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
w = torch.tensor([0.5, 0.25, 2.0], requires_grad=True)
y = x.multiply(w).subtract(1.0, alpha=2).divide(w).true_divide(3)
z = y.negative().absolute()
print(y)
print(z)
print(x.divide(2.0, rounding_mode="floor"))
for t in (y, z):
    fn = t.grad_fn
    names = []
    while fn is not None and fn.next_functions:
        names.append(type(fn).__name__)
        fn = fn.next_functions[0][0]
    print(names)
z.sum().backward()
print(x.grad, w.grad)
print(torch.multiply(x, 2).grad_fn.name(), torch.subtract(x, w, alpha=3).grad_fn.name())
