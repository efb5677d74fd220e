# source: original
# topic: higher-order
# compare: exact
# visibility: public
# grad.grad_fn after autograd.grad(..., create_graph=True): PyTorch's dedicated backward kernels
# (TanhBackwardBackward0, ThresholdBackwardBackward0, MseLossBackwardBackward0 ...) and the
# second and third derivatives through them.
import torch
import torch.nn.functional as F

x = torch.tensor([0.5, 1.5], requires_grad=True)
t = torch.tensor([1.0, 0.0])
cases = {
    "x**3": lambda v: v ** 3, "x**2": lambda v: v ** 2, "x*x": lambda v: v * v,
    "sin": lambda v: torch.sin(v), "cos": lambda v: torch.cos(v), "exp": lambda v: v.exp(),
    "log": lambda v: v.log(), "sqrt": lambda v: v.sqrt(), "tanh": lambda v: torch.tanh(v),
    "sigmoid": lambda v: torch.sigmoid(v), "relu": lambda v: torch.relu(v),
    "leaky_relu": lambda v: F.leaky_relu(v, 0.1), "abs": lambda v: v.abs(),
    "1/x": lambda v: 1 / v, "mse": lambda v: F.mse_loss(v, t), "l1": lambda v: F.l1_loss(v, t),
    "huber": lambda v: F.huber_loss(v, t), "smooth_l1": lambda v: F.smooth_l1_loss(v, t),
    "bce": lambda v: F.binary_cross_entropy(torch.sigmoid(v), t),
    "sum_sq": lambda v: (v ** 2).sum(), "nn.Tanh": lambda v: torch.nn.Tanh()(v),
}
for name, f in cases.items():
    g, = torch.autograd.grad(f(x).sum(), x, create_graph=True)
    name2 = g.grad_fn.name() if g.grad_fn is not None else None
    g2, = torch.autograd.grad(g.sum(), x, allow_unused=True)
    print(name, name2, g2)
x = torch.tensor([[0.5, -1.5], [2.0, -0.2]], requires_grad=True)
t = torch.tensor([[1.0, 0.0], [0.5, 0.3]], requires_grad=True)
for red in ("mean", "sum", "none"):
    for name, f in (("mse", F.mse_loss), ("huber", F.huber_loss), ("sl1", F.smooth_l1_loss)):
        out = f(x, t, reduction=red)
        if red == "none":
            out = (out * torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum()
        gx, gt = torch.autograd.grad(out, (x, t), create_graph=True)
        print(name, red, gx, gt)
        h = torch.autograd.grad((gx ** 2).sum() + gt.sum(), (x, t), allow_unused=True)
        print(h)
for f in (torch.tanh, torch.sigmoid, torch.relu, lambda v: F.leaky_relu(v, 0.2)):
    y = f(x)
    g, = torch.autograd.grad(y.sum(), x, create_graph=True)
    g2, = torch.autograd.grad(g.sum(), x, create_graph=True)
    print(g, g2)
    if g2.grad_fn is not None:
        g3, = torch.autograd.grad(g2.sum(), x)
        print(g3)
y = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.Tanh(), torch.nn.Linear(3, 1))
for p in y.parameters():
    torch.nn.init.constant_(p, 0.3)
out = y(x).sum()
g, = torch.autograd.grad(out, x, create_graph=True)
print(g, g.grad_fn)
(g.norm()).backward()
print(y[0].weight.grad)
