# expect: refused
# goal: functools.wraps(assigned=) replaces torch.Tensor.backward with the program's function
import functools
import torch


class Holder:
    pass


def evil(self, *args, **kwargs):
    print("PWNED: backward replaced")


h = Holder()
h.backward = evil
functools.wraps(h, assigned=("backward",), updated=())(torch.Tensor)
torch.ones(2, requires_grad=True).sum().backward()
