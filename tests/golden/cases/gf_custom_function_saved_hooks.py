# source: original
# topic: grad_fn
# compare: exact
# visibility: public
# saved_tensors_hooks see what a custom Function saves with ctx.save_for_backward.
import torch

class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        y = x ** 3
        ctx.save_for_backward(x, y)
        ctx.k = k
        return y * k

    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        print("backward sees", x, y)
        return g * 3 * x ** 2 * ctx.k, None

def pack(t):
    print("pack", t.shape, t.requires_grad, t.grad_fn)
    return t.tolist()

def unpack(p):
    print("unpack", p)
    return torch.tensor(p)

a = torch.tensor([1., 2.], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    out = Cube.apply(a, 2.0)
    print("forward done")
print(out)
print(out.grad_fn.saved_tensors)
out.sum().backward()
print(a.grad)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    out = Cube.apply(a, 1.0) * a
print(out.grad_fn.next_functions[0][0].saved_tensors[0] is a)
class Keep(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x, None)
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        x, none = ctx.saved_tensors
        print(x, none)
        return g
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    r = Keep.apply(a)
r.sum().backward()

class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y
    @staticmethod
    def backward(ctx, g):
        y, = ctx.saved_tensors
        y2, = ctx.saved_tensors
        print("same object twice:", y is y2, y.grad_fn)
        return g * y

class Square(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x * x
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g

log = []  # second part: outputs saved, setup_context, repeated reads
def pack(t):
    log.append(("pack", tuple(t.shape), t.grad_fn.name() if t.grad_fn else None))
    return t.detach().clone()
def unpack(t):
    log.append(("unpack", tuple(t.shape)))
    return t

a = torch.tensor([0., 1.], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    e = Exp.apply(a)
    s = Square.apply(a)
print(log)
log.clear()
(e + s).sum().backward(retain_graph=True)
print(log, a.grad)
log.clear()
print(e.grad_fn.saved_tensors[0].requires_grad, log)
(e + s).sum().backward()
try:
    e.grad_fn.saved_tensors
except RuntimeError as err:
    print(str(err)[:60])
with torch.no_grad(), torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    Exp.apply(a)
print(log[-1])
