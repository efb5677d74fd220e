# source: original
# topic: forward-mode tangents through elementwise arithmetic and unary math, one input dual
#   or both, numbers on either side, broadcasting
# compare: exact
# visibility: public
import torch
import torch.autograd.forward_ad as fwAD

a_p = torch.tensor([0.5, 1.0, 2.0, -1.5])
a_t = torch.tensor([1.0, 0.0, -2.0, 0.5])
b = torch.tensor([3.0, -4.0, 0.25, 2.0])
with fwAD.dual_level():
    a = fwAD.make_dual(a_p, a_t)
    for name, f in [("add", lambda: a + b), ("radd", lambda: 2 + a), ("sub", lambda: a - b),
                    ("rsub", lambda: 1 - a), ("mul", lambda: a * b), ("div", lambda: a / b),
                    ("rdiv", lambda: b / a), ("divnum", lambda: a / 4), ("neg", lambda: -a),
                    ("pow", lambda: a ** 3), ("sq", lambda: a ** 2), ("exp", lambda: a.exp()),
                    ("log", lambda: a.abs().log()), ("sin", lambda: a.sin()),
                    ("cos", lambda: a.cos()), ("tanh", lambda: a.tanh()),
                    ("sigmoid", lambda: a.sigmoid()), ("relu", lambda: a.relu()),
                    ("sqrt", lambda: a.abs().sqrt()), ("abs", lambda: a.abs()),
                    ("chain", lambda: (a * a + a.sin()) / (1 + a.exp()))]:
        print(name, fwAD.unpack_dual(f()).tangent)
    c = fwAD.make_dual(b, torch.tensor([1.0, 1.0, 1.0, 1.0]))
    print(fwAD.unpack_dual(a * c).tangent, fwAD.unpack_dual(a / c).tangent)
    row = fwAD.make_dual(torch.tensor([[1.0, 2.0]]), torch.tensor([[1.0, -1.0]]))
    col = torch.tensor([[1.0], [2.0], [3.0]])
    print(row + col)
    print(row * col)
