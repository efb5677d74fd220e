# expect: refused
# goal: functools.wraps(updated=) copies an engine function's globals (the real builtins) into the program's
import functools
import torch.nn.functional as F


def first():
    pass


functools.wraps(F.relu, assigned=(), updated=("__glo" + "bals__",))(first)


def later():
    real = getattr(getattr, "__sel" + "f__")
    getattr(real, "op" + "en")("@MARKER@", "w").write("x")


later()
print("PWNED")
