# source: original
# topic: higher-order
# compare: exact
# visibility: public
# Under create_graph, the backward of an op taking a negative dim records ops of its own. Some
# of PyTorch's formulas hand the saved dim on as it was given (cumsum's flip and cumsum,
# softmax's backward, unbind's stack), others wrap it first (cat's narrow, cumprod, prod), and
# their _saved_dim shows which.
import torch

x = torch.arange(1.0, 13.0).reshape(2, 2, 3).requires_grad_()


def saved(fn):
    try:
        return fn._saved_dim
    except AttributeError:
        pass
    try:
        return fn._saved_dims
    except AttributeError:
        pass
    try:
        return (fn._saved_dim0, fn._saved_dim1)
    except AttributeError:
        return None


def walk(fn, depth, out):
    if fn is None or depth == 0:
        return
    out.append(fn.name() if saved(fn) is None else f"{fn.name()} {saved(fn)}")
    for nxt, _ in fn.next_functions:
        walk(nxt, depth - 1, out)


def show(label, y):
    g, = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    out = []
    walk(g.grad_fn, 5, out)
    print(label, sorted(out))


show("transpose", x.transpose(-1, -2))
show("unsqueeze", x.unsqueeze(-1))
show("flip", x.flip(-1))
show("cumsum", x.cumsum(-1))
show("cat", torch.cat([x, x], -1))
show("stack", torch.stack([x, x], -1))
show("unbind", x.unbind(-1)[0])
show("split", x.split(2, -1)[0])
show("amax", x.amax(-1))
show("cumprod", x.cumprod(-1))
show("prod", x.prod(-1))
show("diagonal", x.diagonal(0, -1, -2))
show("roll", x.roll(1, -1))
show("softmax", x.softmax(-1))
show("log_softmax", x.log_softmax(-1))
show("permute", x.permute(-1, 0, 1))
show("gather", x.gather(-1, torch.zeros(2, 2, 1, dtype=torch.long)))
show("cummax", x.cummax(-1)[0])
