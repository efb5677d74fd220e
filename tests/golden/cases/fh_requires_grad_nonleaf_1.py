# source: original
# topic: errors
# compare: exact
# visibility: public
# Setting requires_grad on a non-leaf: the attribute refuses True and False (in two wordings),
# requires_grad_(True) is accepted; a non-leaf made without grad can be switched on.
import torch
a = torch.ones(2, requires_grad=True)
b = a * 2
for v in (True, False):
    try:
        b.requires_grad = v
        print("ok", v)
    except RuntimeError as e:
        print(v, e)
    try:
        b.requires_grad_(v)
        print("ok_", v)
    except RuntimeError as e:
        print("_", v, e)
c = torch.ones(2)
d = c * 2
d.requires_grad = True
print(d.requires_grad, d.is_leaf)
