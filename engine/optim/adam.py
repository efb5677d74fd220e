"""`optim.Adam` and `optim.AdamW`: adaptive moment estimation.

PyTorch counterparts: `torch.optim.Adam`, `torch.optim.AdamW` (single-tensor path). Per
step t: m = lerp(m, g, 1 - beta1); v = beta2 * v + (1 - beta2) * g * g;
p -= lr / (1 - beta1**t) * m / (sqrt(v) / sqrt(1 - beta2**t) + eps). Adam adds
weight_decay * p to g (L2); AdamW instead shrinks p by lr * weight_decay first.
"""
from __future__ import annotations

import math

import numpy as np

from .optimizer import (Optimizer, addcdiv, addcmul, check_lr, check_nonnegative, count_step, fma,
                        followed_grad, lerp, scalar, start_state)


class Adam(Optimizer):
    """Adam (Kingma & Ba), with optional amsgrad, maximize and weight decay.

    Example:
        >>> import gradstep.engine as torch
        >>> w = torch.tensor([1.0], requires_grad=True)
        >>> opt = torch.optim.Adam([w], lr=0.1)
        >>> (w * w).sum().backward(); opt.step()
        >>> round(w.item(), 4), opt.state[w]["step"]
        (0.9, tensor(1.))
    """

    sparse_grad_error = ("Adam does not support sparse gradients, please consider SparseAdam "
                         "instead")

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 amsgrad=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False, fused=None, decoupled_weight_decay=False) -> None:
        check_lr(lr)
        check_nonnegative("epsilon", eps)
        check_betas(betas)
        check_nonnegative("weight_decay", weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                        amsgrad=amsgrad, maximize=maximize, foreach=foreach,
                        capturable=capturable, differentiable=differentiable, fused=fused,
                        decoupled_weight_decay=decoupled_weight_decay)
        super().__init__(params, defaults)

    def _update(self, group: dict, params: list) -> None:
        lr, (beta1, beta2) = scalar(group["lr"]), group["betas"]
        eps, wd = group["eps"], group["weight_decay"]
        for p in params:
            g = followed_grad(p, group)
            st = self.state[p]
            if not st:
                start_state(st, p, "exp_avg", "exp_avg_sq",
                            *(("max_exp_avg_sq",) if group["amsgrad"] else ()))
            step = count_step(st)
            if wd != 0:
                if group["decoupled_weight_decay"]:
                    p._data[...] = p._data * p._data.dtype.type(1 - lr * wd)
                else:
                    g = fma(g, wd, p._data)
            m, v = st["exp_avg"]._data, st["exp_avg_sq"]._data
            m[...] = lerp(m, g, 1 - beta1)
            v[...] = addcmul(v * v.dtype.type(beta2), g, g, 1 - beta2)
            step_size = lr / (1 - beta1 ** step)
            bc2_sqrt = math.sqrt(1 - beta2 ** step)
            if group["amsgrad"]:
                mx = st["max_exp_avg_sq"]._data
                mx[...] = np.maximum(mx, v)
                v = mx
            dt = p._data.dtype.type
            denom = np.sqrt(v) / dt(bc2_sqrt) + dt(eps)
            if self._terms is not None:     # NOTE [the rule's terms] in optimizer.py
                bc1, bc2 = 1 - beta1 ** step, 1 - beta2 ** step
                # AdamW's decay already shrank p: the value the moment step starts from
                decayed = {"decayed": p._data} if wd != 0 and group["decoupled_weight_decay"] \
                    else {}
                self._note(p, d_p=g, **decayed, bias_correction1=bc1, bias_correction2=bc2,
                           m_hat=m / dt(bc1), v_hat=v / dt(bc2), step_size=step_size,
                           denom=denom)
            self._write(p, addcdiv(p._data, m, denom, -step_size))


def check_betas(betas) -> None:
    """PyTorch's check of (beta1, beta2) for the Adam family, index by index."""
    for i in (0, 1):
        if not 0.0 <= betas[i] < 1.0:
            raise ValueError(f"Invalid beta parameter at index {i}: {betas[i]}")


class AdamW(Adam):
    """Adam with decoupled weight decay (default 0.01)."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                 amsgrad=False, *, maximize=False, foreach=None, capturable=False,
                 differentiable=False, fused=None) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach,
                         maximize=maximize, capturable=capturable,
                         differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)


__all__ = ["Adam", "AdamW"]
