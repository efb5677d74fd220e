# source: original
# topic: optim: optimizer.state (step, exp_avg, exp_avg_sq, momentum_buffer...) after steps 1, 2, 10
# compare: exact
# visibility: public
# What each optimizer keeps per parameter, printed as PyTorch prints optimizer.state and
# state_dict(), for SGD (momentum, Nesterov, weight decay, dampening), Adam, AdamW (and
# amsgrad), RMSprop and Adagrad on the same small loss.
import torch

x = torch.tensor([[1.0, 2.0], [0.5, -1.5], [-2.0, 0.25]])
y = torch.tensor([0.5, -1.0, 2.0])
configs = [
    ("SGD", dict(lr=0.1, momentum=0.9)),
    ("SGD", dict(lr=0.05, momentum=0.9, nesterov=True, weight_decay=0.01)),
    ("SGD", dict(lr=0.05, momentum=0.5, dampening=0.25, weight_decay=0.1)),
    ("Adam", dict(lr=0.1)),
    ("Adam", dict(lr=0.05, betas=(0.8, 0.99), weight_decay=0.1, amsgrad=True)),
    ("AdamW", dict(lr=0.1)),
    ("AdamW", dict(lr=0.05, weight_decay=0.5, amsgrad=True)),
    ("RMSprop", dict(lr=0.01)),
    ("RMSprop", dict(lr=0.01, momentum=0.9, centered=True, weight_decay=0.1)),
    ("Adagrad", dict(lr=0.1)),
    ("Adagrad", dict(lr=0.1, lr_decay=0.01, initial_accumulator_value=0.5)),
]
# a table, not getattr(torch.optim, name): gradstep refuses computed attribute names
OPTIMIZERS = {"SGD": torch.optim.SGD, "Adam": torch.optim.Adam, "AdamW": torch.optim.AdamW,
              "RMSprop": torch.optim.RMSprop, "Adagrad": torch.optim.Adagrad}
for name, kwargs in configs:
    w = torch.tensor([0.5, -1.25], requires_grad=True)
    b = torch.tensor(0.2, requires_grad=True)
    opt = OPTIMIZERS[name]([w, b], **kwargs)
    print(name, kwargs)
    for step in range(1, 11):
        opt.zero_grad()
        loss = ((x @ w + b).tanh() - y).pow(2).mean()
        loss.backward()
        opt.step()
        if step in (1, 2, 10):
            print("after step", step, "loss", f"{loss.item():.6f}")
            print("w", w)
            print("b", b)
            print("state[w]", opt.state[w])
            print("state[b]", opt.state[b])
    print(opt.state_dict())
