# source: original
# topic: autograd
# compare: numeric
# visibility: public
# The gradient each op sends back, for fixed inputs.
import torch


def grad_of(fn, *values):
    xs = [torch.tensor(v, requires_grad=True) for v in values]
    fn(*xs).sum().backward()
    return [x.grad for x in xs]


v = [0.5, 1.5, 2.5]
m = [[1.0, 2.0], [3.0, 4.0]]
for label, fn, args in [
        ("neg", torch.neg, (v,)), ("abs", torch.abs, ([-1.0, 2.0, -3.0],)),
        ("exp", torch.exp, (v,)), ("log", torch.log, (v,)), ("sqrt", torch.sqrt, (v,)),
        ("sin", torch.sin, (v,)), ("cos", torch.cos, (v,)), ("tan", torch.tan, ([0.1, 0.5, 1.0],)),
        ("tanh", torch.tanh, (v,)), ("sigmoid", torch.sigmoid, (v,)),
        ("relu", torch.relu, ([-1.0, 0.0, 2.0],)), ("pow 3", lambda x: x ** 3, (v,)),
        ("pow tensor", lambda x, y: x ** y, (v, [2.0, 0.5, 1.0])),
        ("rpow", lambda x: 2 ** x, (v,)),
        ("div", lambda x, y: x / y, (v, [2.0, 4.0, 8.0])), ("rdiv", lambda x: 1 / x, (v,)),
        ("clamp", lambda x: x.clamp(1.0, 2.0), (v,)),
        ("max", lambda x: x.max(), ([1.0, 3.0, 2.0],)),
        ("min dim", lambda x: x.min(dim=1).values, (m,)),
        ("norm", lambda x: x.norm(), ([3.0, 4.0],)), ("prod", torch.prod, ([2.0, 3.0, 4.0],)),
        ("mean dim", lambda x: x.mean(dim=0), (m,)),
        ("mm", torch.mm, (m, [[0.5], [-1.0]])), ("mv", torch.mv, (m, [1.0, 2.0])),
        ("dot", torch.dot, (v, [1.0, -1.0, 2.0])),
        ("softmax", lambda x: torch.softmax(x, 0) * torch.tensor([1.0, 2.0, 3.0]), (v,)),
        ("log_softmax", lambda x: torch.log_softmax(x, 0)[0], (v,)),
        ("where", lambda x, y: torch.where(x > 1.0, x, y), (v, [9.0, 9.0, 9.0])),
        ("cat", lambda x, y: torch.cat([x, y]) * torch.arange(5.0), ([1.0, 2.0], [3.0, 4.0, 5.0])),
        ("stack", lambda x, y: torch.stack([x, y]).prod(0), ([1.0, 2.0], [3.0, 4.0])),
        ("index", lambda x: x[[0, 0, 2]], (v,)), ("slice", lambda x: x[:, 1:] * 3, (m,)),
        ("permute", lambda x: x.permute(1, 0) * torch.tensor([[1.0, 2.0]]), (m,)),
        ("expand", lambda x: x.expand(3, 2) * torch.arange(6.0).view(3, 2), ([[1.0, 2.0]],))]:
    print(label, grad_of(fn, *args))
