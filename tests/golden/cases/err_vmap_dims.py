# source: original
# topic: torch.func.vmap refusing as PyTorch does: non-tensor outputs, in_dims and out_dims
#   out of range or not matching the inputs' and outputs' structure, unmapped inputs, a
#   mapped number, random ops under randomness="error", a bad randomness, .numpy(), an
#   in-place write of a batched tensor into one that is not
# compare: exact
# visibility: public
import torch
from torch.func import vmap

x = torch.tensor([[1.0, -2.0, 3.0], [3.0, -4.0, 0.5]])


def attempt(fn):
    try:
        print(fn())
    except (ValueError, RuntimeError) as e:
        print(type(e).__name__, e)


attempt(lambda: vmap(lambda t: 3.0)(x))
attempt(lambda: vmap(lambda t: (t, 3))(x))
attempt(lambda: vmap(lambda t: t.shape)(x))
attempt(lambda: vmap(lambda t: None)(x))
attempt(lambda: vmap(torch.sum, in_dims=2)(x))
attempt(lambda: vmap(torch.sum, in_dims=-3)(x))
attempt(lambda: vmap(torch.sum, in_dims=(0, 0))(x))
attempt(lambda: vmap(lambda a, b: a + b, in_dims=((0, 1), None))(x, x))
attempt(lambda: vmap(lambda t: t * 2, out_dims=(0, 1))(x))
attempt(lambda: vmap(lambda t: (t, t), out_dims=(0, 1, 0))(x))
attempt(lambda: vmap(lambda t: t * 2, out_dims=1.5)(x))
attempt(lambda: vmap(lambda t: t.sum(), in_dims=None)(x))
attempt(lambda: vmap(lambda t: t.sum(), in_dims=[0])(x))
attempt(lambda: vmap(lambda t: t.sum(), in_dims=(None,))(x))
attempt(lambda: vmap(lambda t: t.sum())(torch.tensor(1.0)))
attempt(lambda: vmap(lambda t: t.sum())())
attempt(lambda: vmap(torch.sum)(x, 0))
attempt(lambda: vmap(lambda t: t.sum(), out_dims=None)(x))
attempt(lambda: vmap(lambda t: t.sum(), randomness="bad")(x))
attempt(lambda: vmap(lambda t: torch.randn(3) + t)(x))
attempt(lambda: vmap(lambda t: torch.rand(()) * t)(x))
attempt(lambda: vmap(lambda t: t.numpy())(x))
attempt(lambda: vmap(lambda a, b: a + b)(x, torch.ones(3, 3)))
w = torch.ones(3)
attempt(lambda: vmap(lambda t: w.add_(t))(x))
attempt(lambda: vmap(lambda t: w.mul_(t))(x))
attempt(lambda: vmap(lambda t: w.copy_(t))(x))
attempt(lambda: vmap(lambda t: torch.ones(2, 3).add_(t))(x))
attempt(lambda: vmap(lambda t: w.sub_(t * 2))(x))
print(w, vmap(lambda t: t.clone().add_(w))(x))
print(vmap(torch.sum, in_dims=(0, None))(x, 0))
print(vmap(lambda t, s: t * s, in_dims=(0, None))(x, 2))
print(vmap(lambda t: t.sum() * 0, out_dims=(0,))(x))
