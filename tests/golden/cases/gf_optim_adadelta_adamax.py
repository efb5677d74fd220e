# source: original
# topic: optim
# compare: exact
# visibility: public
# optim.Adadelta and optim.Adamax training a tiny linear model: a few steps with the default
# arguments and with the common options (lr, rho / betas, eps, weight_decay, maximize), their
# state and state_dict, two parameter groups, zero_grad, repr, and their argument errors.
import torch

x = torch.tensor([[1.0, -2.0], [0.5, 1.5], [-1.0, 0.25]])
y = torch.tensor([[1.0], [-0.5], [2.0]])


def model_params():
    w = torch.tensor([[0.3], [-0.6]], requires_grad=True)
    b = torch.tensor([0.1], requires_grad=True)
    return w, b


for name, kw in [("Adadelta", {}), ("Adadelta", dict(lr=0.5, rho=0.8, eps=1e-4)),
                 ("Adadelta", dict(weight_decay=0.1, maximize=True)),
                 ("Adamax", {}), ("Adamax", dict(lr=0.1, betas=(0.8, 0.95))),
                 ("Adamax", dict(lr=0.05, weight_decay=0.2, eps=1e-3))]:
    w, b = model_params()
    opt = {"Adadelta": torch.optim.Adadelta, "Adamax": torch.optim.Adamax}[name]([w, b], **kw)
    print(name, kw)
    for step in range(4):
        opt.zero_grad()
        loss = ((x @ w + b - y) ** 2).mean()
        loss.backward()
        opt.step()
        print(step, loss, w.detach().flatten(), b.detach())
    sd = opt.state_dict()
    print(sorted(sd["state"][0]), sd["state"][0]["step"], sd["param_groups"][0]["params"])
    print(w.grad)
    opt.zero_grad()
    print(w.grad)

w, b = model_params()
opt = torch.optim.Adadelta([{"params": [w]}, {"params": [b], "lr": 0.1, "rho": 0.5}])
print(opt)
for _ in range(3):
    opt.zero_grad()
    ((x @ w + b - y) ** 2).sum().backward()
    opt.step()
print(w.detach().flatten(), b.detach(), opt.state[b]["acc_delta"])
opt = torch.optim.Adamax([{"params": [w]}, {"params": [b], "betas": (0.5, 0.9)}], lr=0.01)
print(opt)
for bad in [dict(rho=1.5), dict(lr=-0.1), dict(eps=-1.0), dict(weight_decay=-2)]:
    try:
        torch.optim.Adadelta([w], **bad)
    except ValueError as e:
        print("ValueError", e)
for bad in [dict(betas=(1.0, 0.9)), dict(betas=(0.9, -0.1)), dict(lr=-1e-3)]:
    try:
        torch.optim.Adamax([w], **bad)
    except ValueError as e:
        print("ValueError", e)
