# source: original
# topic: optim
# compare: exact
# visibility: public
# Learning-rate schedules step each group's lr; stepping the scheduler first warns.
import torch
from torch.optim.lr_scheduler import ExponentialLR, LambdaLR, MultiStepLR, StepLR

w = torch.tensor([1.0, -1.0], requires_grad=True)
for make in (lambda o: StepLR(o, step_size=2, gamma=0.5),
             lambda o: MultiStepLR(o, milestones=[1, 3], gamma=0.1),
             lambda o: ExponentialLR(o, gamma=0.9),
             lambda o: LambdaLR(o, lr_lambda=lambda epoch: 1 / (epoch + 1))):
    opt = torch.optim.SGD([w], lr=0.1)
    sched = make(opt)
    rates = [sched.get_last_lr()]
    for epoch in range(4):
        opt.zero_grad()
        (w ** 2).sum().backward()
        opt.step()
        sched.step()
        rates.append(sched.get_last_lr())
    print(type(sched).__name__, rates, sched.last_epoch)
    print(w)
    print(opt.param_groups[0]["lr"], opt.param_groups[0]["initial_lr"])
opt = torch.optim.SGD([w], lr=0.1)
sched = StepLR(opt, step_size=1)
sched.step()
opt.step()
print(opt.param_groups[0]["lr"])
