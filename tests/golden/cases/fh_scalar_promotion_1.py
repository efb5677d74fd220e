# source: original
# topic: dtype
# compare: exact
# visibility: public
# A Python number on the left of an integer or bool tensor promotes as PyTorch does:
# 2.5 - ints is float32, 2 ** ints stays int64, // and % follow the same rules; bools refuse -.
import torch

t = torch.tensor([1, 2])
for r in [2.5 - t, 2.5 * t, 2.5 / t, 2.5 + t, 2 ** t, 2.5 ** t, 2 - t, 2 * t, 2 / t, 2 + t,
          t - 2.5, t // 2, 2 // t, 2.5 // t, t % 2.5, 5 % t, 5.5 % t, torch.rsub(t, 2.5)]:
    print(r, r.dtype)
b = torch.tensor([True, False])
for r in [2.5 - b.int(), 2 * b, 2.5 * b, b + 1, 1.5 ** b, 2 ** b]:
    print(r, r.dtype)
for f in (lambda: 1 - b, lambda: b - 1, lambda: b - b, lambda: -b):
    try:
        f()
    except RuntimeError as e:
        print(type(e).__name__, e)
