# source: original
# topic: lr_scheduler.SequentialLR (warm-up then decay, as tutorials chain them), ConstantLR,
#   PolynomialLR, step(epoch) by the closed form with its deprecation warning, and how
#   schedulers print
# compare: exact
# visibility: public
import torch
import torch.nn as nn
from torch.optim.lr_scheduler import (ConstantLR, CosineAnnealingLR, ExponentialLR, LinearLR,
                                      MultiStepLR, PolynomialLR, ReduceLROnPlateau,
                                      SequentialLR, StepLR)

p = nn.Parameter(torch.ones(2))
opt = torch.optim.SGD([p], lr=1.0)
warm = LinearLR(opt, start_factor=0.1, total_iters=3)
decay = CosineAnnealingLR(opt, T_max=4, eta_min=0.01)
sched = SequentialLR(opt, schedulers=[warm, decay], milestones=[3])
print(sched.get_last_lr(), warm.last_epoch, decay.last_epoch)
for _ in range(8):
    opt.step()
    sched.step()
    print(sched.last_epoch, round(opt.param_groups[0]["lr"], 6), sched.get_last_lr())
print(sched.state_dict())

opt = torch.optim.Adam([p], lr=0.1)
sched = SequentialLR(opt, [ConstantLR(opt, factor=0.5, total_iters=2),
                           ExponentialLR(opt, gamma=0.9), StepLR(opt, 2, 0.1)],
                     milestones=[2, 4])
for _ in range(7):
    opt.step()
    sched.step()
    print(sched.get_last_lr())

opt = torch.optim.SGD([p], lr=1.0)
poly = PolynomialLR(opt, total_iters=4, power=2.0)
for _ in range(5):
    opt.step()
    poly.step()
    print(poly.get_last_lr())
for cls, kw in [(StepLR, {"step_size": 2, "gamma": 0.5}),
                (MultiStepLR, {"milestones": [1, 3], "gamma": 0.1}),
                (LinearLR, {"total_iters": 4}), (ConstantLR, {"factor": 0.25}),
                (CosineAnnealingLR, {"T_max": 10})]:
    opt = torch.optim.SGD([p], lr=1.0)
    s = cls(opt, **kw)
    opt.step()
    s.step(3)
    print(cls.__name__, s.last_epoch, s.get_last_lr())
print(type(s), s)
print(StepLR, ReduceLROnPlateau)
plateau = ReduceLROnPlateau(opt)
plateau.step(1.0, epoch=2)
print(plateau.last_epoch)

errors = [lambda: SequentialLR(opt, [], milestones=[]),
          lambda: SequentialLR(opt, [StepLR(opt, 1), StepLR(opt, 1)], milestones=[]),
          lambda: SequentialLR(opt, [plateau], milestones=[]),
          lambda: SequentialLR(opt, [opt], milestones=[]),
          lambda: SequentialLR(torch.optim.SGD([p], lr=1.0), [StepLR(opt, 1)], []),
          lambda: ConstantLR(opt, factor=2.0)]
for make in errors:
    try:
        make()
    except (ValueError, TypeError) as e:
        print(type(e).__name__, str(e).split(" at 0x")[0])
