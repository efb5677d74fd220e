# source: original
# topic: errors
# compare: exact
# visibility: public
# Integer division and remainder by zero raise (floats give inf and nan); in-place division
# misuse; squeeze with repeated dims. Caught and printed as "Type message".
import torch


def attempt(label, fn):
    try:
        print(label, fn())
    except Exception as e:
        print(label, type(e).__name__, e)


i = torch.tensor([7, -7, 0])
attempt("// 0", lambda: i // 0)
attempt("% 0", lambda: i % 0)
attempt("// tensor", lambda: i // torch.tensor([1, 0, 2]))
attempt("% tensor", lambda: i % torch.tensor([1, 0, 2]))
attempt("div floor", lambda: torch.div(i, 0, rounding_mode="floor"))
attempt("div trunc", lambda: torch.div(i, 0, rounding_mode="trunc"))
attempt("true div", lambda: torch.div(i, 0))
attempt("fmod", lambda: torch.fmod(i, 0))
attempt("number // tensor", lambda: 5 // torch.tensor([0]))
attempt("number % tensor", lambda: 5 % torch.tensor([0]))
attempt("float //", lambda: i.float() // 0)
attempt("float %", lambda: i.float() % 0)
attempt("int32 %", lambda: torch.tensor([7], dtype=torch.int32) % 0)
attempt("bool //", lambda: torch.tensor([True]) // torch.tensor([False]))
j = torch.tensor([5, 6])


def floordiv_in_place(t, other):
    t //= other
    return t


attempt("//= 0", lambda: floordiv_in_place(j, 0))
print(j, j._version)
attempt("//= float", lambda: floordiv_in_place(j, 2.5))
attempt("%= float", lambda: j.remainder_(2.5))
attempt("div_ mode", lambda: torch.tensor([1., 2.]).div_(2, rounding_mode="round"))
attempt("div_ floor of ints", lambda: j.div_(2))
leaf = torch.tensor([3., 4.], requires_grad=True)
attempt("leaf //=", lambda: floordiv_in_place(leaf, 2))
h = leaf * 1
h //= 2
attempt("backward through //=", lambda: h.sum().backward())
attempt("squeeze repeated", lambda: torch.zeros(2, 1).squeeze((1, -1)))
attempt("squeeze dim", lambda: torch.zeros(2, 1).squeeze((0, 2)))
