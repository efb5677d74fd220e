# expect: refused
# goal: functools.wraps(updated=) copies a standard function's globals (the real builtins) into the program's, then open() writes the marker
import functools
import statistics


def first():
    pass


functools.wraps(statistics.mean, assigned=(), updated=("__glo" + "bals__",))(first)


def later():
    real = getattr(getattr, "__sel" + "f__")
    getattr(real, "op" + "en")("@MARKER@", "w").write("x")


later()
print("PWNED")
