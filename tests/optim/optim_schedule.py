"""Shared by the optimiser tests: a fixed problem and a gradient schedule.

The gradients are fixed numbers (not computed by the engine), so a test compares the
optimiser's arithmetic alone with what PyTorch 2.13 did given the same gradients.
"""
import numpy as np

import gradstep.engine as torch


def grads(i: int) -> tuple:
    """The gradients fed at step i: a 2x3 weight gradient and a 2-vector bias gradient."""
    gw = [[((i * 7 + k * 3) % 11 - 5) * 0.137 + 0.01 * k for k in range(3)],
          [((i * 5 + k) % 7 - 3) * 0.291 for k in range(3)]]
    gb = [((i * 3) % 5 - 2) * 0.713, ((i * 2) % 9 - 4) * 0.0517]
    return gw, gb


def run(name: str, kwargs: dict, steps: int = 6) -> list:
    """Six steps of optim.<name>(**kwargs) on the fixed problem; the parameters, flattened."""
    w = torch.tensor([[0.5, -1.25, 2.0], [0.1, 0.3, -0.7]], requires_grad=True)
    b = torch.tensor([0.2, -0.1], requires_grad=True)
    opt = getattr(torch.optim, name)([w, b], **kwargs)
    for i in range(steps):
        gw, gb = grads(i)
        w.grad, b.grad = torch.tensor(gw), torch.tensor(gb)
        opt.step()
    return w.flatten().tolist() + b.tolist()


def check(name: str, kwargs: dict, expected: list) -> None:
    # float32 agreement to a few units in the last place
    np.testing.assert_allclose(run(name, kwargs), expected, rtol=1e-6, atol=1e-7)
