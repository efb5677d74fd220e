"""W4 a 1,000,000-element float32 elementwise chain of 20 ops, then sum and backward:
here the arithmetic dominates, so the engine should cost what numpy costs."""
import torch

N = 1_000_000


def setup():
    torch.manual_seed(0)
    x = torch.rand(N, requires_grad=True)
    return (x,)


def run(state):
    (x,) = state
    y = x
    for _ in range(4):            # 5 ops a round, 20 in all
        y = y * 0.9
        y = y + 0.1
        y = y.sin()
        y = y * y
        y = y.exp()
    loss = y.sum()
    loss.backward()
    x.grad = None
    return float(loss)
