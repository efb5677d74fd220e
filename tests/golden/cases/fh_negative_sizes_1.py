# source: original
# topic: errors
# compare: exact
# visibility: public
# Sizes below -1 in view/reshape, and negative sizes in factories, raise PyTorch's errors.
import torch

x = torch.arange(6.)
for shape in [(-2,), (2, -3), (-1, -2), (-3, 2), (0, -1)]:
    for method, reshape in (("view", x.view), ("reshape", x.reshape)):
        try:
            print(reshape(*shape).shape)
        except RuntimeError as e:
            print(method, shape, type(e).__name__, e)
for make in (lambda: torch.zeros(-1), lambda: torch.ones(2, -3), lambda: torch.empty(-2),
             lambda: torch.randn(-1), lambda: torch.full((-1,), 2.0)):
    try:
        make()
    except RuntimeError as e:
        print(type(e).__name__, e)
print(x.view(-1, 3))
