# source: original
# topic: training
# compare: exact
# visibility: public
# A learner asks a scheduler for get_lr() instead of get_last_lr(): PyTorch warns, and in its
# chainable form get_lr() computes one step further. state_dict() lists the two flags the
# scheduler keeps (_is_initial, _get_lr_called_within_step); LambdaLR saves its functions as None
# and a callable object as its attributes.
import torch
from torch.optim.lr_scheduler import CosineAnnealingLR, ExponentialLR, LinearLR, StepLR

w = torch.tensor([1.0, 2.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
sched = StepLR(opt, step_size=2, gamma=0.5)
for epoch in range(5):
    opt.step()
    sched.step()
    print(epoch, sched.get_last_lr(), opt.param_groups[0]["lr"])
print(sched.state_dict())
opt = torch.optim.SGD([w], lr=0.1)
sched = ExponentialLR(opt, gamma=0.5)
print(sched.get_lr(), sched.get_last_lr())
opt.step()
sched.step()
print(sched.get_last_lr(), sched.state_dict())
opt = torch.optim.SGD([w], lr=0.1)
sched = LinearLR(opt, start_factor=0.5, total_iters=2)
print(sched.get_last_lr(), sched.get_lr())
opt = torch.optim.SGD([w], lr=0.1)
sched = CosineAnnealingLR(opt, T_max=4)
print(sched.get_last_lr(), sched.get_lr())


class Warmup:
    def __init__(self):
        self.k = 3

    def __call__(self, epoch):
        return min(1.0, (epoch + 1) / self.k)


opt = torch.optim.SGD([w], lr=0.1)
sched = torch.optim.lr_scheduler.LambdaLR(opt, Warmup())
opt.step()
sched.step()
state = sched.state_dict()
print(state)
state["lr_lambdas"][0]["k"] = 5
sched.load_state_dict(state)
print(sched.lr_lambdas[0].k, sched.last_epoch, list(state))
opt = torch.optim.SGD([w], lr=0.1)
print(torch.optim.lr_scheduler.LambdaLR(opt, lambda epoch: 0.5 ** epoch).state_dict())
