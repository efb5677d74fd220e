# source: original
# topic: torch.add / t.mul / torch.mm and friends refuse a numpy array, a list or None
# compare: exact
# visibility: public
# The operators hand a numpy array to numpy (err_numpy_right_operand.py); the named forms go
# through PyTorch's argument parser, which wants a Tensor (or a number) and says where.
import torch
import numpy as np

w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
t = torch.tensor([1.0, 2.0, 3.0])
m = torch.ones(3, 3)
a = np.array([1.0, 2.0, 4.0])

tries = [
    lambda: torch.add(w, a), lambda: w.add(a), lambda: torch.add(a, w), lambda: w.sub(a),
    lambda: torch.sub(a, w), lambda: w.mul([1.0, 2.0, 3.0]), lambda: torch.mul(w, (1.0, 2.0, 3.0)),
    lambda: w.div(a), lambda: torch.div(a, w), lambda: torch.add(w, None), lambda: w.mul("2"),
    lambda: t.add_(a), lambda: t.sub_(a), lambda: t.mul_([2.0]), lambda: t.div_(a),
    lambda: torch.mm(m, np.ones((3, 3))), lambda: m.mm(np.ones((3, 3))), lambda: m.mv(a),
    lambda: torch.mv(m, a), lambda: torch.dot(w, a), lambda: torch.dot(a, w), lambda: w.dot(a),
    lambda: torch.matmul(w, 2), lambda: w.matmul(a), lambda: torch.bmm(m[None], m),
    lambda: torch.bmm(m[None], np.ones((1, 3, 3))), lambda: w.maximum(a), lambda: w.maximum(2.0),
    lambda: torch.minimum(w, [1.0, 2.0, 3.0]), lambda: w @ 2, lambda: 2 @ w, lambda: w @ [1.0],
]
for f in tries:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)

# numbers, numpy numbers included, are still fine
print(w.add(np.float64(1.0)), torch.mul(w, np.float32(2)), w.sub(1), torch.div(2.0, w))
print(torch.add(1, w), t.add_(np.int64(1)), t.mul_(True))
loss = (w.mul(a) ** 2).sum()
