"""W1 tiny-op overhead: a chain of 2000 mixed elementwise ops on 3-element float32 tensors.

What a learner's snippet costs per op: the tensors are so small that the time is all framework
overhead (object creation, dispatch, graph recording), none of it arithmetic.
"""
import torch

N_OPS = 2000
OPS_PER_ROUND = 5            # mul, add, sin, tanh... see forward(); keeps values bounded


def setup():
    x = torch.tensor([0.1, 0.2, 0.3], requires_grad=True)
    c = torch.tensor([0.5, 0.5, 0.5])
    return x, c


def forward(state):
    x, c = state
    y = x
    for _ in range(N_OPS // OPS_PER_ROUND):
        y = y * c
        y = y + c
        y = y.sin()
        y = y - c
        y = y.tanh()
    return y.sum()


def ops_counted():
    return N_OPS
