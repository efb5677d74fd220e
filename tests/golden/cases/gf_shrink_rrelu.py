# source: original
# topic: nn
# compare: exact
# visibility: public
# F.hardshrink, F.softshrink, F.rrelu and their modules: values (softshrink keeps the sign of
# a zeroed negative: -0.), grad_fn names and saved attributes, gradients, second-order nodes
# under create_graph, RReLU in eval mode (the mean slope) and seeded training mode (random
# slopes, saved as noise), in place, module reprs, and the errors PyTorch raises.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor([-1.5, -0.5, -0.2, 0.0, 0.3, 0.5, 2.0], requires_grad=True)
for f in [F.hardshrink, F.softshrink]:
    y = f(x)
    print(y, y.grad_fn.name(), y.grad_fn._saved_lambd)
    y.pow(2).sum().backward()
    print(x.grad)
    x.grad = None
    y = f(x, 0.25)
    g, = torch.autograd.grad(y.sum(), x, create_graph=True)
    print(y, g, type(g.grad_fn).__name__, [type(f).__name__ for f, _ in g.grad_fn.next_functions])
print(torch.hardshrink(x, lambd=1.0), x.hardshrink(0.1))
print(F.softshrink(x.detach().double(), 1.0))
print(nn.Hardshrink(), nn.Softshrink(0.2), nn.Hardshrink(lambd=1), nn.RReLU(),
      nn.RReLU(0.1, 0.3, inplace=True))

act = nn.RReLU(0.1, 0.3).eval()
y = act(x)
print(y, type(y.grad_fn).__name__, y.grad_fn._saved_training, y.grad_fn._saved_lower)
y.sum().backward()
print(x.grad)
x.grad = None
print(F.rrelu(x), torch.rrelu(x, 0.2, 0.2))

torch.manual_seed(0)
train = nn.RReLU()
print(train.training)
y = train(x)
print(y, y.grad_fn._saved_noise)
y.sum().backward()
print(x.grad)
x.grad = None
torch.manual_seed(3)
h = torch.tensor([[-2.0, 1.0], [-0.5, -4.0]], dtype=torch.float64)
print(F.rrelu(h, training=True), torch.rand(2))
z = x * 2
F.rrelu_(z)
print(z, z.grad_fn.name())
g, = torch.autograd.grad(F.rrelu(x, 0.1, 0.3).sum(), x, create_graph=True)
print(g, type(g.grad_fn).__name__)

for bad in [lambda: F.softshrink(x, -0.5), lambda: F.hardshrink(torch.tensor([1, -2])),
            lambda: F.softshrink(torch.tensor([1, -2])), lambda: F.rrelu(x, 0.5, 0.1),
            lambda: F.rrelu(torch.tensor([1, -2])),
            lambda: F.rrelu(torch.tensor([1, -2]), training=True),
            lambda: F.rrelu(x, inplace=True),
            lambda: F.softshrink(torch.tensor([1.0], dtype=torch.float64), -2.5)]:
    try:
        bad()
    except (RuntimeError, NotImplementedError) as e:
        print(type(e).__name__, e)
