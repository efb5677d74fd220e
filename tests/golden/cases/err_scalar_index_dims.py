# source: original
# topic: errors
# compare: exact
# visibility: public
# Indexing a 0-d tensor as old tutorials did (`loss.data[0]`, `loss[0]`), and a dim repeated
# in a reduction's dims or in permute.
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
loss = (x * x).mean()
for key in (0, -1, 2, slice(None), slice(0, 1), [0], torch.tensor([0]), (0,), None):
    try:
        print(repr(key), loss[key])
    except IndexError as e:
        print(repr(key), "IndexError", e)
try:
    print(loss.data[0])
except IndexError as e:
    print("IndexError", e)
print(loss.item(), loss.data)
m = torch.arange(24.0).reshape(2, 3, 4)
for attempt in (lambda: m.sum((0, 0)), lambda: m.mean(dim=[1, -2]), lambda: m.amax((2, 1, 1, 2)),
                lambda: m.std((0, 2, -1)), lambda: m.sum((0, -1)), lambda: m.permute(0, 2, 0),
                lambda: m.permute(2, 0, 1).shape):
    try:
        print(attempt())
    except RuntimeError as e:
        print("RuntimeError", e)
