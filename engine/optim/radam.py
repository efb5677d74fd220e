"""`optim.RAdam`: Adam whose adaptive step is switched on once its variance is tractable.

PyTorch counterpart: `torch.optim.RAdam` (single-tensor path). Per step t: m and v as in Adam;
rho_inf = 2 / (1 - beta2) - 1, rho_t = rho_inf - 2 t beta2**t / (1 - beta2**t). While
rho_t <= 5 the step is plain momentum, p -= lr * m / (1 - beta1**t); afterwards it is
multiplied by sqrt(1 - beta2**t) / (sqrt(v) + eps) and the rectification term r_t.
"""
from __future__ import annotations

import numpy as np

from .adam import check_betas
from .optimizer import (Optimizer, addcmul, check_lr, check_nonnegative, count_step, fma,
                        followed_grad, lerp, scalar, start_state)


class RAdam(Optimizer):
    """RAdam (Liu et al., 2019), optionally with decoupled weight decay.

    Example:
        >>> import gradstep.engine as torch
        >>> w = torch.tensor([1.0], requires_grad=True)
        >>> opt = torch.optim.RAdam([w], lr=0.1)
        >>> (w * w).sum().backward(); opt.step()
        >>> round(w.item(), 4)
        0.8
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False,
                 capturable=False, differentiable=False) -> None:
        check_lr(lr)
        check_nonnegative("epsilon", eps)
        check_betas(betas)
        check_nonnegative("weight_decay", weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                        maximize=maximize, foreach=foreach, capturable=capturable,
                        decoupled_weight_decay=decoupled_weight_decay,
                        differentiable=differentiable)
        super().__init__(params, defaults)

    def _update(self, group: dict, params: list) -> None:
        lr, (beta1, beta2) = scalar(group["lr"]), group["betas"]
        eps, wd = group["eps"], group["weight_decay"]
        for p in params:
            st = self.state[p]
            if not st:
                start_state(st, p, "exp_avg", "exp_avg_sq")
            g = followed_grad(p, group)
            step = count_step(st)
            dt = p._data.dtype.type
            if wd != 0:
                if group["decoupled_weight_decay"]:
                    p._data[...] = p._data * dt(1 - lr * wd)
                else:
                    g = fma(g, wd, p._data)
            m, v = st["exp_avg"]._data, st["exp_avg_sq"]._data
            m[...] = lerp(m, g, 1 - beta1)
            v[...] = addcmul(v * dt(beta2), g, g, 1 - beta2)
            bc1, bc2 = 1 - beta1 ** step, 1 - beta2 ** step
            update = m / dt(bc1) * dt(lr)
            rho_inf = 2 / (1 - beta2) - 1
            rho_t = rho_inf - 2 * step * (beta2 ** step) / bc2
            if rho_t > 5.0:
                rect = ((rho_t - 4) * (rho_t - 2) * rho_inf
                        / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
                # PyTorch's `float / tensor` is the tensor's reciprocal times the float
                adaptive = np.reciprocal(np.sqrt(v) + dt(eps)) * dt(bc2 ** 0.5)
                update = update * adaptive * dt(rect)
            self._write(p, p._data - update)


__all__ = ["RAdam"]
