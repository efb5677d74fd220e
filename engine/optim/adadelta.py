"""`optim.Adadelta`: steps sized by the ratio of running RMS of updates to RMS of gradients.

PyTorch counterpart: `torch.optim.Adadelta` (single-tensor path, the one it takes on the CPU).
Per step: s = rho * s + (1 - rho) * g * g; delta = sqrt(acc + eps) / sqrt(s + eps) * g;
acc = rho * acc + (1 - rho) * delta * delta; p -= lr * delta, with g = grad + weight_decay * p.
"""
from __future__ import annotations

import numpy as np

from .optimizer import (Optimizer, addcmul, check_lr, check_nonnegative, count_step, fma,
                        followed_grad, scalar, start_state)


class Adadelta(Optimizer):
    """Adadelta (Zeiler, 2012), with PyTorch's lr (default 1.0) and float32 roundings.

    Example:
        >>> import gradstep.engine as torch
        >>> w = torch.tensor([1.0], requires_grad=True)
        >>> opt = torch.optim.Adadelta([w])
        >>> (w * w).sum().backward(); opt.step()
        >>> round(w.item(), 6)
        0.999998
    """

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *,
                 capturable=False, maximize=False, differentiable=False) -> None:
        check_lr(lr)
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        check_nonnegative("epsilon", eps)
        check_nonnegative("weight_decay", weight_decay)
        defaults = dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize,
                        capturable=capturable, foreach=foreach, differentiable=differentiable)
        super().__init__(params, defaults)

    def _update(self, group: dict, params: list) -> None:
        lr, rho, eps = scalar(group["lr"]), group["rho"], group["eps"]
        wd = group["weight_decay"]
        for p in params:
            st = self.state[p]
            if not st:
                start_state(st, p, "square_avg", "acc_delta")
            count_step(st)
            g = followed_grad(p, group)
            if wd != 0:
                g = fma(g, wd, p._data)
            dt = p._data.dtype.type
            s, acc = st["square_avg"]._data, st["acc_delta"]._data
            s[...] = addcmul(s * dt(rho), g, g, 1 - rho)
            std = np.sqrt(s + dt(eps))
            delta = np.sqrt(acc + dt(eps))
            # PyTorch divides first, then multiplies by the gradient (delta.div_(std).mul_(g))
            delta = delta / std * g
            acc[...] = addcmul(acc * dt(rho), delta, delta, 1 - rho)
            self._write(p, fma(p._data, -lr, delta))


__all__ = ["Adadelta"]
