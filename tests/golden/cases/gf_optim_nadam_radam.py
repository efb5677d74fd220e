# source: original
# topic: optim
# compare: exact
# visibility: public
# optim.NAdam and optim.RAdam on a small least-squares problem: their first steps with the
# defaults and with momentum_decay, decoupled_weight_decay, weight_decay, betas and maximize;
# NAdam's mu_product in its state, RAdam's switch from plain momentum to rectified steps,
# state_dict round trips, param groups, repr and argument errors.
import torch

x = torch.tensor([[2.0, 1.0], [-1.0, 0.5], [0.5, -3.0], [1.0, 1.0]])
y = torch.tensor([1.0, 0.0, -2.0, 3.0])
OPTIMIZERS = {"NAdam": torch.optim.NAdam, "RAdam": torch.optim.RAdam}


def fit(name, steps=6, **kw):
    w = torch.tensor([0.5, -0.5], requires_grad=True)
    opt = OPTIMIZERS[name]([w], **kw)
    for step in range(steps):
        opt.zero_grad()
        loss = ((x @ w - y) ** 2).mean()
        loss.backward()
        opt.step()
        print(step, round(loss.item(), 4), w)
    return w, opt


for kw in [{}, dict(lr=0.1), dict(lr=0.05, momentum_decay=0.01, weight_decay=0.1),
           dict(lr=0.05, weight_decay=0.1, decoupled_weight_decay=True),
           dict(lr=0.1, betas=(0.7, 0.9), maximize=True)]:
    print("NAdam", kw)
    w, opt = fit("NAdam", **kw)
    st = opt.state[w]
    print(list(st), st["step"], st["mu_product"], st["exp_avg"])

for kw in [{}, dict(lr=0.1), dict(lr=0.1, betas=(0.5, 0.6)),
           dict(lr=0.05, betas=(0.8, 0.9), weight_decay=0.1, decoupled_weight_decay=True),
           dict(lr=0.1, betas=(0.6, 0.7), weight_decay=0.05)]:
    print("RAdam", kw)
    w, opt = fit("RAdam", **kw)
    print(list(opt.state[w]), opt.state[w]["exp_avg_sq"])

w, opt = fit("NAdam", steps=2, lr=0.1)
saved = opt.state_dict()
print(saved["param_groups"])
again = torch.optim.NAdam([w], lr=0.5)
again.load_state_dict(saved)
print(again.param_groups[0]["lr"], again.state[w]["mu_product"], again.state[w]["step"])
other = torch.zeros(2, requires_grad=True)
print(torch.optim.RAdam([{"params": [w]}, {"params": [other], "lr": 0.5}]))
for name, bad in [("NAdam", dict(momentum_decay=-0.1)), ("NAdam", dict(betas=(0.9, 1.0))),
                  ("RAdam", dict(eps=-1e-8)), ("RAdam", dict(weight_decay=-0.5))]:
    try:
        OPTIMIZERS[name]([w], **bad)
    except ValueError as e:
        print(name, "ValueError", e)
