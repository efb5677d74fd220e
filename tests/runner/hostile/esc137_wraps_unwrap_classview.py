# expect: refused
# goal: functools.wraps with the guard's own slot name copies the real ndarray class out of a ClassView
import functools
import numpy as np

view = type(np.zeros(1))


def holder():
    pass


functools.wraps(view, assigned=("_sbx_" + "cls",), updated=())(holder)
functools.wraps(view, assigned=(), updated=("_sbx_" + "cls",))(holder)
print("PWNED", holder)
