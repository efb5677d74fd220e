"""`optim.Adamax`: Adam with the second moment replaced by a decaying infinity norm.

PyTorch counterpart: `torch.optim.Adamax` (single-tensor path). Per step t:
m = lerp(m, g, 1 - beta1); u = max(beta2 * u, |g| + eps); p -= lr / (1 - beta1**t) * m / u,
with g = grad + weight_decay * p.
"""
from __future__ import annotations

import numpy as np

from .adam import check_betas
from .optimizer import (Optimizer, addcdiv, check_lr, check_nonnegative, count_step, fma,
                        followed_grad, lerp, scalar, start_state)


class Adamax(Optimizer):
    """Adamax (Kingma & Ba, section 7), with PyTorch's float32 roundings.

    Example:
        >>> import gradstep.engine as torch
        >>> w = torch.tensor([1.0], requires_grad=True)
        >>> opt = torch.optim.Adamax([w], lr=0.1)
        >>> (w * w).sum().backward(); opt.step()
        >>> round(w.item(), 4)
        0.9
    """

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 foreach=None, *, maximize=False, differentiable=False,
                 capturable=False) -> None:
        check_lr(lr)
        check_nonnegative("epsilon", eps)
        check_betas(betas)
        check_nonnegative("weight_decay", weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                        foreach=foreach, maximize=maximize, differentiable=differentiable,
                        capturable=capturable)
        super().__init__(params, defaults)

    def _update(self, group: dict, params: list) -> None:
        lr, (beta1, beta2) = scalar(group["lr"]), group["betas"]
        eps, wd = group["eps"], group["weight_decay"]
        for p in params:
            st = self.state[p]
            if not st:
                start_state(st, p, "exp_avg", "exp_inf")
            g = followed_grad(p, group)
            step = count_step(st)
            if wd != 0:
                g = fma(g, wd, p._data)
            dt = p._data.dtype.type
            m, u = st["exp_avg"]._data, st["exp_inf"]._data
            m[...] = lerp(m, g, 1 - beta1)
            u[...] = np.maximum(u * dt(beta2), np.abs(g) + dt(eps))
            clr = lr / (1 - beta1 ** step)
            self._write(p, addcdiv(p._data, m, u, -clr))


__all__ = ["Adamax"]
