"""`torch.autograd.gradcheck` and `gradgradcheck`: backward against finite differences.

PyTorch counterpart: `torch.autograd.gradcheck` (its slow mode). For each output and each input
that requires grad, the numerical Jacobian (central differences of size `eps`, one input
element at a time) must be allclose to the analytical one (one backward per output element);
both are laid out input elements x output elements, as PyTorch prints them.
"""
from __future__ import annotations

import numpy as np

from .. import messages
from ..tensor import Tensor, new_tensor
from .walk import grad as _grad


class GradcheckError(RuntimeError):
    """A failed gradcheck (PyTorch's `torch.autograd.gradcheck.GradcheckError`)."""


GradcheckError.__module__ = "torch.autograd.gradcheck"     # an uncaught one prints as PyTorch's

_NOT_DOUBLE = ("Input #{} requires gradient and is not a double precision floating point or "
               "complex. This check will likely fail if all the inputs are not of double "
               "precision floating point or complex. ")


def _tuple(x) -> tuple:
    return (x,) if isinstance(x, Tensor) else tuple(x)


def _numerical(func, inputs: tuple, i: int, j: int, eps: float) -> np.ndarray:
    """d output j / d input i by central differences: (input elements, output elements)."""
    data = inputs[i]._data
    rows = []
    for k in np.ndindex(*data.shape):
        orig = data[k].copy()
        # func runs in the caller's grad mode: gradgradcheck's func itself calls backward
        data[k] = orig - eps
        a = _tuple(func(*inputs))[j]._data.copy()
        data[k] = orig + eps
        b = _tuple(func(*inputs))[j]._data.copy()
        data[k] = orig
        rows.append(((b - a) / (2 * eps)).reshape(-1))
    return np.array(rows, dtype=data.dtype).reshape(data.size, -1)


def _analytical(out: Tensor, inp: Tensor) -> np.ndarray:
    """d out / d inp by one backward per output element: (input elements, output elements)."""
    cols = []
    for k in range(out.numel()):
        seed = np.zeros(out.shape, dtype=out._data.dtype)
        seed.reshape(-1)[k] = 1
        (g,) = _grad(out, inp, new_tensor(seed), retain_graph=True, allow_unused=True)
        cols.append(np.zeros(inp._data.size) if g is None else g._data.reshape(-1))
    return np.array(cols, dtype=inp._data.dtype).T.reshape(inp._data.size, out.numel())


def gradcheck(func, inputs, *, eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3,
              raise_exception: bool = True, **options) -> bool:
    """True when func's backward agrees with finite differences at `inputs`; otherwise raise
    GradcheckError (or return False when raise_exception=False).

    Example:
        >>> import gradstep.engine as torch
        >>> x = torch.tensor([0.5, -1.0], dtype=torch.float64, requires_grad=True)
        >>> gradcheck(torch.sin, (x,))
        True
    """
    inputs = _tuple(inputs)
    diff = [i for i, t in enumerate(inputs) if isinstance(t, Tensor) and t.requires_grad]
    if not diff:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, "
                         "but none of them have requires_grad=True.")
    for i in diff:
        if inputs[i]._data.dtype != np.float64:
            messages.warn(_NOT_DOUBLE.format(i))
    outputs = _tuple(func(*inputs))
    for j, out in enumerate(outputs):
        if not (isinstance(out, Tensor) and out.requires_grad):
            continue
        for i in diff:
            numerical = _numerical(func, inputs, i, j, eps)
            analytical = _analytical(out, inputs[i])
            if not np.allclose(analytical, numerical, rtol=rtol, atol=atol):
                if not raise_exception:
                    return False
                raise GradcheckError(
                    f"Jacobian mismatch for output {j} with respect to input {i},\n"
                    f"numerical:{new_tensor(numerical)}\nanalytical:{new_tensor(analytical)}\n")
    return True


def gradgradcheck(func, inputs, grad_outputs=None, *, eps: float = 1e-6, atol: float = 1e-5,
                  rtol: float = 1e-3, raise_exception: bool = True, **options) -> bool:
    """gradcheck of the backward itself: of (inputs, grad_outputs) -> input gradients.

    Without `grad_outputs`, random ones in [-1, 1) are drawn from the global generator, one
    tensor per output, as PyTorch's `make_tensor` does.
    """
    from ..factories import empty
    inputs = _tuple(inputs)
    outputs = _tuple(func(*inputs))
    if grad_outputs is None:
        grad_outputs = tuple(empty(o.shape, dtype=o.dtype).uniform_(-1, 1).requires_grad_()
                             for o in outputs)
    grad_outputs = _tuple(grad_outputs)
    n = len(inputs)
    diff = [i for i, t in enumerate(inputs) if isinstance(t, Tensor) and t.requires_grad]

    def first_grads(*args):
        xs, gos = args[:n], args[n:]
        outs = _tuple(func(*xs))
        grads = _grad(outs, [xs[i] for i in diff], gos, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(first_grads, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception)


__all__ = ["gradcheck", "gradgradcheck", "GradcheckError"]
