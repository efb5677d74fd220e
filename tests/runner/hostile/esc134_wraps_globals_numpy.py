# expect: refused
# goal: functools.wraps(updated=) copies numpy's linspace globals (the real builtins) into the program's
import functools
import numpy as np


@functools.wraps(np.linspace, assigned=(), updated=("__glo" + "bals__",))
def first():
    pass


def later():
    real = getattr(getattr, "__sel" + "f__")
    getattr(real, "op" + "en")("@MARKER@", "w").write("x")


later()
print("PWNED")
