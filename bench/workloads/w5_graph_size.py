"""W5 graph-size scaling: a chain of N tiny ops, forward then backward. Time and peak memory
should grow linearly in N (the backward walk is iterative, with no recursion-limit cliff)."""
import torch


def setup():
    return (torch.tensor([0.5, -0.5, 0.25], requires_grad=True),)


def run(state, n):
    (x,) = state
    y = x
    for i in range(n):
        y = y * 1.0001 if i % 2 else y + 0.0001
    y.sum().backward()
    x.grad = None
