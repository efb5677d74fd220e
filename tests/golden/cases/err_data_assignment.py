# source: original
# topic: errors
# compare: exact
# visibility: public
# The .data trick with the wrong thing: a list or a number, or integer data for a tensor that
# requires grad; assigning a float tensor of another shape or dtype is allowed.
import torch
w = torch.ones(2, requires_grad=True)
values = [[1., 2.], 3, torch.tensor([True]), torch.tensor([1, 2]),
          torch.ones(3, dtype=torch.float64)]
for v in values:
    try:
        w.data = v
        print(w)
    except (TypeError, RuntimeError) as e:
        print(type(e).__name__, e)
a = torch.ones(2)
a.data = torch.tensor([1, 2])
print(a)
b = torch.ones(2, requires_grad=True) * 2
try:
    b.data = torch.tensor([1, 2])
except RuntimeError as e:
    print("RuntimeError", e)
b.data = torch.tensor([5., 6.])
print(b)
