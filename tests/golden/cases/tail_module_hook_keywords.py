# source: original
# topic: module hook keywords: register_forward_pre_hook(with_kwargs, prepend), register_forward_hook(with_kwargs, prepend, always_call), the pre-hook result check
# compare: exact
# visibility: public
import torch
from torch import nn


class Scale(nn.Module):
    def forward(self, x, factor=1.0):
        return x * factor


m = Scale()
x = torch.tensor([1.0, -2.0])


def pre_kw(module, args, kwargs):
    print("pre_kw", args, kwargs)
    kwargs = dict(kwargs, factor=kwargs.get("factor", 1.0) * 10)
    return args, kwargs


def pre_plain(module, args):
    print("pre_plain", args)


def post_kw(module, args, kwargs, out):
    print("post_kw", kwargs, out)
    return out + 1


def post_plain(module, args, out):
    print("post_plain", out)


h1 = m.register_forward_pre_hook(pre_kw, with_kwargs=True)
h2 = m.register_forward_pre_hook(pre_plain, prepend=True)
h3 = m.register_forward_hook(post_kw, with_kwargs=True)
h4 = m.register_forward_hook(post_plain, prepend=True)
print(m(x, factor=2.0))
print(m(x))
h1.remove(); h3.remove()
print(m(x, factor=3.0))
m.register_forward_pre_hook(lambda mod, a, k: 5, with_kwargs=True)
try:
    m(x)
except RuntimeError as e:
    print("RuntimeError", e)


class Boom(nn.Module):
    def forward(self, x):
        raise ValueError("no forward today")


b = Boom()
b.register_forward_hook(lambda mod, a, out: print("always", out), always_call=True)
b.register_forward_hook(lambda mod, a, out: print("never", out))
try:
    b(x)
except ValueError as e:
    print("ValueError", e)
c = Boom()
c.register_forward_hook(lambda mod, a, out: out.sum(), always_call=True)
try:
    c(x)
except ValueError as e:
    print("ValueError", e)
