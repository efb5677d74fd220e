# source: original
# topic: training
# compare: exact
# visibility: public
# OneCycleLR (and CosineAnnealingWarmRestarts, below): warm-up then annealing of the rate
# (cosine or linear, two or three phases), with SGD's momentum or Adam's beta1 cycled the
# other way; the argument checks in PyTorch's words.
import torch

w = torch.zeros(1, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.5, total_steps=10)
print(opt.param_groups[0]["lr"], opt.param_groups[0]["momentum"])
for i in range(10):
    opt.step()
    sched.step()
    print(sched.get_last_lr(), opt.param_groups[0]["momentum"])
try:
    opt.step()
    sched.step()
except ValueError as e:
    print(e)
opt = torch.optim.Adam([w], lr=0.1)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.01, epochs=2, steps_per_epoch=4,
                                            anneal_strategy="linear", three_phase=True)
for i in range(8):
    opt.step()
    sched.step()
    print(sched.get_last_lr(), opt.param_groups[0]["betas"])
print(sorted(k for k in opt.param_groups[0] if "lr" in k or "momentum" in k))
for kwargs in [dict(), dict(total_steps=0), dict(total_steps=5, pct_start=1),
               dict(total_steps=5, anneal_strategy="exp")]:
    try:
        torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, **kwargs)
    except ValueError as e:
        print(e)
# CosineAnnealingWarmRestarts: restarts every T_0 epochs (cycles T_mult times longer), and
# step(epoch) may jump to a fractional epoch.
opt = torch.optim.SGD([w], lr=0.1)
sched = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=3)
for i in range(7):
    opt.step()
    sched.step()
    print(sched.get_last_lr())
opt = torch.optim.SGD([w], lr=0.1)
sched = torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2, T_mult=2, eta_min=0.001)
for i in range(9):
    opt.step()
    sched.step()
    print(sched.get_last_lr(), sched.T_cur, sched.T_i)
for epoch in [0.5, 1.5, 2.25, 7.0]:
    sched.step(epoch)
    print(sched.get_last_lr(), sched.last_epoch)
for kwargs in [dict(T_0=0), dict(T_0=2, T_mult=0), dict(T_0=2, eta_min="x")]:
    try:
        torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, **kwargs)
    except ValueError as e:
        print(e)
