# source: original
# topic: optim
# compare: exact
# visibility: public
# nn.Unflatten and Tensor.unflatten, nn.ParameterList (repr, iteration, registration in
# parameters() and state_dict()), and optim.Adagrad stepping to the last bit with lr_decay,
# weight_decay, initial_accumulator_value and eps; its state_dict and its argument errors.
import torch
import torch.nn as nn

u = nn.Unflatten(1, (3, 2))
print(u, nn.Unflatten(-1, torch.Size([2, 3])))
x = torch.arange(12.0).reshape(2, 6).requires_grad_()
z = u(x)
print(z.shape, type(z.grad_fn).__name__, x.unflatten(-1, (-1, 3)).shape)
for sizes in [(2, 2), (), (-1, -1)]:
    try:
        x.unflatten(1, sizes)
    except RuntimeError as e:
        print("RuntimeError", str(e).splitlines()[0])

pl = nn.ParameterList([nn.Parameter(torch.ones(2)), torch.zeros(2, 3)])
pl.append(torch.ones(1, dtype=torch.float64))
print(pl, len(pl))
for p in pl:
    print(type(p).__name__, tuple(p.shape), p.requires_grad)
print(pl[1:], list(pl.state_dict().keys()))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.scales = nn.ParameterList([nn.Parameter(torch.tensor([0.5, -1.0])) for _ in "ab"])
        self.lin = nn.Linear(2, 1)


net = Net()
print(net)
print([name for name, _ in net.named_parameters()], len(list(net.parameters())))
try:
    pl(1)
except RuntimeError as e:
    print("RuntimeError", e)

w0 = [[0.3, -1.7, 2.2], [0.01, 5.0, -0.4]]
c = torch.tensor([[1.3, -0.7, 0.11], [2.9, 0.05, -3.3]])
for kw in [dict(), dict(lr=0.1, lr_decay=0.05),
           dict(lr=0.3, weight_decay=0.01, initial_accumulator_value=0.2, eps=1e-6),
           dict(lr=0.7, lr_decay=0.3, eps=0.01, maximize=True)]:
    w = torch.tensor(w0, requires_grad=True)
    b = torch.tensor([0.1, -0.2], requires_grad=True)
    opt = torch.optim.Adagrad([w, b], **kw)
    print(opt.state_dict()["state"][1])
    for _ in range(4):
        opt.zero_grad()
        ((w * w * c).sum() + (b * b * b).sum()).backward()
        opt.step()
        print(w.tolist(), b.tolist())
    print(opt.state_dict()["state"][0]["sum"].tolist(), opt.state_dict()["state"][0]["step"])
print(opt)
for bad in [dict(lr=-1.0), dict(lr_decay=-1), dict(initial_accumulator_value=-0.5),
            dict(eps=-1e-3), dict(weight_decay=-1)]:
    try:
        torch.optim.Adagrad([w], **bad)
    except ValueError as e:
        print("ValueError", e)
