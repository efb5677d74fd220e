# source: original
# topic: optim
# compare: numeric
# visibility: public
# Optimizers step a small linear model: parameters after a few steps, state, zero_grad.
import torch
import torch.nn as nn

x = torch.tensor([[1.0, 2.0, -1.0], [0.5, -0.5, 3.0], [2.0, 0.1, 0.2], [-1.0, 1.0, 1.0]])
y = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.0, 0.0]])
configs = [
    ("SGD", dict(lr=0.1)),
    ("SGD", dict(lr=0.05, momentum=0.9)),
    ("SGD", dict(lr=0.05, momentum=0.9, nesterov=True, weight_decay=0.01)),
    ("Adam", dict()),
    ("Adam", dict(lr=0.05, weight_decay=0.1, amsgrad=True)),
    ("AdamW", dict(lr=0.05)),
    ("RMSprop", dict()),
    ("RMSprop", dict(lr=0.01, momentum=0.9, centered=True)),
]
# a table, not getattr(torch.optim, name): gradstep refuses computed attribute names
OPTIMIZERS = {"SGD": torch.optim.SGD, "Adam": torch.optim.Adam, "AdamW": torch.optim.AdamW,
              "RMSprop": torch.optim.RMSprop}
for name, kwargs in configs:
    model = nn.Linear(3, 2)
    with torch.no_grad():
        model.weight.copy_(torch.tensor([[0.5, -1.25, 2.0], [0.1, 0.3, -0.7]]))
        model.bias.copy_(torch.tensor([0.2, -0.1]))
    opt = OPTIMIZERS[name](model.parameters(), **kwargs)
    for step in range(10):
        opt.zero_grad()
        loss = nn.MSELoss()(model(x), y)
        loss.backward()
        opt.step()
    print(name, kwargs, f"{loss.item():.5f}")
    print(model.weight)
    print(model.bias)
    print(sorted(opt.state[model.weight].keys()))
    opt.zero_grad()
    print(model.weight.grad)
p = torch.tensor([1.0, -2.0], requires_grad=True)
opt = torch.optim.Adam([p])
p.grad = torch.tensor([0.5, 1.0])
opt.step()
print(opt.state[p])
print(p, p.is_leaf, p.grad_fn)
opt = torch.optim.SGD([p], lr=0.1, momentum=0.9)
(p * p).sum().backward()
opt.step()
print(opt.state_dict())
opt.zero_grad(set_to_none=False)
print(p.grad)
