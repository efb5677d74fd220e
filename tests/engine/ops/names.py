"""Shared helper: an expression's grad_fn class name and its next_functions names.

The expected tables in the ops tests were recorded from PyTorch 2.13 (the spec)."""
import gradstep.engine as torch


def chain(t):
    fn = t.grad_fn
    return type(fn).__name__, [type(n).__name__ if n else None for n, _ in fn.next_functions]


def env():
    torch.manual_seed(0)
    return {
        "torch": torch,
        "a": torch.tensor([1.0, 2.0, 3.0], requires_grad=True),
        "b": torch.tensor([4.0, 5.0, 6.0], requires_grad=True),
        "M": torch.randn(2, 3, requires_grad=True),
        "N": torch.randn(3, 2, requires_grad=True),
    }
