# source: original
# topic: no-grad
# compare: exact
# visibility: public
# An inference tensor used with a tensor that requires grad: fine where nothing is saved.
import torch
w = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.inference_mode():
    t = torch.ones(2) * 3
try:
    t.add_(1)
except Exception as e:
    print(type(e).__name__, e)
u = t + w
print(u)
c = t.clone()
c.add_(1)
print(c, c.is_inference())
try:
    (t * w).sum().backward()
except Exception as e:
    print(type(e).__name__, e)
