# source: original
# topic: printing
# compare: exact
# visibility: public
# str, repr, f-strings, %-formatting, and tensors inside lists, tuples and dicts.
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
s = (x * 3).sum()
print(str(x) == repr(x))
print([x, s])
print((x, 2))
print({"loss": s})
print(f"{x}")
print(f"{s}")
print(f"{s.item():.3f}")
print("%s" % x)
print("value:", s)
print(repr(torch.tensor([[1., 2.], [3., 4.]])))
print([torch.tensor([[1., 2.], [3., 4.]])])
