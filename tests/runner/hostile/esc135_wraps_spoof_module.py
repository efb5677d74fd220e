# expect: refused,exception
# goal: functools.wraps(assigned=("__module__",)) makes the program's own class pass for an engine class
import functools
import torch


class Mine:
    pass


functools.wraps(torch.Tensor, assigned=("__mod" + "ule__",), updated=())(Mine)
if "torch" in repr(Mine):
    print("PWNED", Mine)
raise ValueError("the class kept its own module")
