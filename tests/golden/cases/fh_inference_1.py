# source: original
# topic: no-grad
# compare: exact
# visibility: public
# Tensors made under inference_mode stay inference tensors: no in-place update outside it
# (the write still lands), and autograd may not save them; a clone is a normal tensor.
import torch
with torch.inference_mode():
    a = torch.zeros(3)
    b = torch.ones(2)
    a[0] = 5
    print(a, a.is_inference())
try:
    a[1] = 7
except Exception as e:
    print(type(e).__name__, e)
print(a)
try:
    b.zero_()
except Exception as e:
    print(type(e).__name__, e)
print(b)
try:
    b.fill_(0.5)
except Exception as e:
    print(type(e).__name__, e)
with torch.inference_mode():
    b.mul_(3)
print(b, b.requires_grad)
w = torch.tensor([1.0, 2.0], requires_grad=True)
print(b + w, (b - w).grad_fn)
try:
    (b * w).sum().backward()
except Exception as e:
    print(type(e).__name__, e)
y = b.clone() * w
y.sum().backward()
print(w.grad, b.clone().is_inference())
with torch.inference_mode():
    with torch.inference_mode(False):
        n = torch.ones(1)
    m = torch.ones(1)
print(n.is_inference(), m.is_inference())
