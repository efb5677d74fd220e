import torch
from torch.optim.lr_scheduler import StepLR
w = torch.tensor([1.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
sched = StepLR(opt, step_size=2, gamma=0.5)
for epoch in range(4):
    opt.zero_grad()
    (w * w).sum().backward()
    opt.step()
    sched.step()
    print(epoch, sched.get_last_lr(), w)
# engine classes carry PyTorch's module names; the guards must still know them as the engine's
print(type(w).__name__, type(w.grad_fn), type(w.shape).__name__, w.dtype)
