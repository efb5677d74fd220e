"""`optim.RMSprop`: divide the gradient by a running root mean square of recent gradients.

PyTorch counterpart: `torch.optim.RMSprop` (single-tensor path). Per step:
s = alpha * s + (1 - alpha) * g * g; avg = sqrt(s) (centered: sqrt(s - mean_g**2)) + eps;
p -= lr * g / avg, or with momentum buf = momentum * buf + g / avg and p -= lr * buf.
"""
from __future__ import annotations

import numpy as np

from .optimizer import (Optimizer, addcdiv, addcmul, check_lr, check_nonnegative, count_step, fma,
                        followed_grad, lerp, scalar, start_state)


class RMSprop(Optimizer):
    """RMSprop (Hinton), optionally centered and with momentum.

    Example:
        >>> import gradstep.engine as torch
        >>> w = torch.tensor([1.0], requires_grad=True)
        >>> opt = torch.optim.RMSprop([w], lr=0.01)
        >>> (w * w).sum().backward(); opt.step()
        >>> round(w.item(), 4)
        0.9
    """

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0,
                 centered=False, capturable=False, foreach=None, maximize=False,
                 differentiable=False) -> None:
        check_lr(lr)
        check_nonnegative("epsilon", eps)
        check_nonnegative("momentum", momentum)
        check_nonnegative("weight_decay", weight_decay)
        check_nonnegative("alpha", alpha)
        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                        weight_decay=weight_decay, capturable=capturable, foreach=foreach,
                        maximize=maximize, differentiable=differentiable)
        super().__init__(params, defaults)

    def _update(self, group: dict, params: list) -> None:
        lr, alpha, eps = scalar(group["lr"]), group["alpha"], group["eps"]
        wd, momentum = group["weight_decay"], group["momentum"]
        for p in params:
            g = followed_grad(p, group)
            st = self.state[p]
            if not st:
                start_state(st, p, "square_avg",
                            *(("momentum_buffer",) if momentum > 0 else ()),
                            *(("grad_avg",) if group["centered"] else ()))
            count_step(st)
            if wd != 0:
                g = fma(g, wd, p._data)
            s = st["square_avg"]._data
            s[...] = addcmul(s * s.dtype.type(alpha), g, g, 1 - alpha)
            if group["centered"]:
                ga = st["grad_avg"]._data
                ga[...] = lerp(ga, g, 1 - alpha)
                avg = np.sqrt(addcmul(s, ga, ga, -1))
            else:
                avg = np.sqrt(s)
            avg = avg + avg.dtype.type(eps)
            if self._terms is not None:     # NOTE [the rule's terms] in optimizer.py
                self._note(p, d_p=g, avg=avg)
            if momentum > 0:
                buf = st["momentum_buffer"]._data
                buf[...] = addcdiv(buf * buf.dtype.type(momentum), g, avg, 1)
                self._write(p, fma(p._data, -lr, buf))
            else:
                self._write(p, addcdiv(p._data, g, avg, -lr))


__all__ = ["RMSprop"]
