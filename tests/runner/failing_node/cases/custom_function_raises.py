import torch

class Clip(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clamp(0, 1)

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("Clip has no backward yet")

x = torch.tensor([0.5, 2.0], requires_grad=True)
y = Clip.apply(x * 2)
(y + x).sum().backward()
