# source: original
# topic: torch.func.vmap over nested inputs and outputs: dict and tuple in_dims, tuple
#   out_dims, negative dims, a named-tuple result (torch.max with dim), nested vmap, a
#   function returning a tuple, keyword arguments, per-sample gradients with vmap(grad(f))
# compare: exact
# visibility: public
import torch
from torch.func import grad, vmap

x = torch.tensor([[1.0, -2.0, 3.0], [3.0, -4.0, 0.5]])
print(vmap(lambda t: t.sum())(x), vmap(torch.sum)(x), vmap(torch.sum, in_dims=1)(x))
print(vmap(torch.sum, in_dims=-1)(x), vmap(lambda t: t * 2, out_dims=-1)(x))
print(vmap(lambda t: (t.sum(), t.max()))(x))
s, d = vmap(lambda t: (t.sum(), t * 2), out_dims=(0, 1))(x)
print(s, d)
print(vmap(lambda t: torch.max(t, 0))(x))
print(vmap(lambda t: t.max(0).indices)(x))
print(vmap(lambda t: {"s": t.sum(), "d": t * 2})(x))
print(vmap(lambda t: [t.sum()])(x))
print(vmap(lambda d: d["a"] * 2)({"a": x}))
print(vmap(lambda p: p[0] + p[1])((x, x)))
print(vmap(lambda d: d["a"] + d["b"], in_dims=({"a": 0, "b": None},))(
    {"a": x, "b": torch.ones(3)}))
print(vmap(vmap(lambda a: a * 2))(x), vmap(vmap(torch.dot, in_dims=(0, None)),
                                            in_dims=(None, 0))(x, x))
print(vmap(lambda t, scale=1.0: t * scale)(x, scale=3.0))
print(vmap(lambda t: (t, 3), out_dims=(0, None))(x))
w = torch.tensor([1.0, 0.5, -1.0])
print(vmap(grad(lambda w, a: (w * a).sum() ** 2), in_dims=(None, 0))(w, x))
print(vmap(lambda t: torch.randn(2) * 0 + t[0], randomness="different")(x))
