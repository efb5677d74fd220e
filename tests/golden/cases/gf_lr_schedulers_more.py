# source: original
# topic: training
# compare: exact
# visibility: public
# CosineAnnealingLR, LinearLR and ReduceLROnPlateau: the learning rates, to the last bit, as
# PyTorch's recursive formulas give them (printed as Python floats).
import torch
from torch.optim.lr_scheduler import CosineAnnealingLR, LinearLR, ReduceLROnPlateau

p = [torch.zeros(1, requires_grad=True)]
opt = torch.optim.SGD(p, lr=0.1)
sched = CosineAnnealingLR(opt, T_max=7, eta_min=0.001)
rates = []
for i in range(20):
    opt.step()
    sched.step()
    rates.append(sched.get_last_lr()[0])
print(rates)
opt = torch.optim.Adam(p, lr=0.05)
sched = CosineAnnealingLR(opt, T_max=4)
for i in range(5):
    opt.step()
    sched.step()
print(sched.get_last_lr(), opt.param_groups[0]["lr"])
opt = torch.optim.Adam(p, lr=0.05)
sched = LinearLR(opt, start_factor=0.25, total_iters=4)
print(opt.param_groups[0]["lr"])
for i in range(6):
    opt.step()
    sched.step()
    print(sched.get_last_lr())
opt = torch.optim.SGD(p, lr=1.0)
plateau = ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=2, cooldown=1, min_lr=0.1)
for loss in [1.0, 0.9, 0.95, 0.96, 0.97, 0.98, 0.99, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1, 1, 1, 1]:
    plateau.step(loss)
    print(loss, plateau.get_last_lr(), plateau.num_bad_epochs, plateau.best)
opt = torch.optim.SGD(p, lr=0.1)
plateau = ReduceLROnPlateau(opt, "max", threshold_mode="abs", threshold=0.1, patience=0)
for acc in [0.5, 0.55, 0.7, 0.75, 0.79]:
    plateau.step(torch.tensor(acc))
    print(plateau.get_last_lr())
for bad in [dict(factor=1.0), dict(mode="avg"), dict(threshold_mode="x")]:
    try:
        ReduceLROnPlateau(opt, **bad)
    except ValueError as e:
        print(e)
try:
    LinearLR(opt, start_factor=0)
except ValueError as e:
    print(e)
