# source: original
# topic: a numpy array on the right of a tensor operator; numpy reading a tensor that requires grad
# compare: exact
# visibility: public
import torch
import numpy as np

t = torch.tensor([1.0, 2.0, 3.0])
w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
a = np.array([1.0, 2.0, 4.0])


def attempt(label, f):
    try:
        r = f()
        print(label, type(r).__name__, r)
    except Exception as e:
        print(label, type(e).__name__ + ":", e)


# PyTorch's operators decline the array; numpy computes in float64 and hands back a Tensor
attempt("t + a", lambda: t + a)
attempt("t ** a", lambda: t ** a)
attempt("t @ a", lambda: t @ a)
attempt("t // a", lambda: t // a)
attempt("t & a", lambda: torch.tensor([1, 2, 3]) & np.array([1, 1, 1]))
attempt("t == a", lambda: t == a)
attempt("t != a", lambda: t != a)
attempt("t + list", lambda: t + [1.0, 2.0, 3.0])
attempt("t == list", lambda: t == [1.0, 2.0, 3.0])
attempt("t < tuple", lambda: t < (1, 2, 3))
# numpy cannot read a tensor that requires grad
attempt("w * a", lambda: w * a)
attempt("np.sin(t)", lambda: np.sin(t))
attempt("np.isnan(t)", lambda: np.isnan(t))
attempt("np.exp(w)", lambda: np.exp(w))
# numpy scalars are numbers: the graph is kept
print(np.sqrt(2) * w, w * np.float32(2.0))

losses = []
for k in range(3):
    losses.append((w * k).sum())
try:
    print(np.array(losses))
except RuntimeError as e:
    print("RuntimeError:", e)
print(np.array([loss.item() for loss in losses]))
print(np.array([loss.detach() for loss in losses]))
np.array(losses[0])
