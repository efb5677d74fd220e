"""`optim.NAdam`: Adam with Nesterov momentum and a momentum schedule.

PyTorch counterpart: `torch.optim.NAdam` (single-tensor path). Per step t, with
mu_t = beta1 * (1 - 0.5 * 0.96 ** (t * momentum_decay)) and mu_product = mu_1 * ... * mu_t
(a float32 0-d tensor in the state): m and v as in Adam, denom = sqrt(v / (1 - beta2**t)) + eps,
p -= lr * (1 - mu_t) / (1 - mu_product) * g / denom
   + lr * mu_{t+1} / (1 - mu_product * mu_{t+1}) * m / denom.
"""
from __future__ import annotations

import numpy as np

from ..tensor import new_tensor
from .adam import check_betas
from .optimizer import (Optimizer, add_zeros, addcdiv, addcmul, check_lr, check_nonnegative,
                        count_step, fma, followed_grad, lerp, scalar, start_state)


class NAdam(Optimizer):
    """NAdam (Dozat, 2016), optionally with decoupled weight decay (NAdamW).

    Example:
        >>> import gradstep.engine as torch
        >>> w = torch.tensor([1.0], requires_grad=True)
        >>> opt = torch.optim.NAdam([w], lr=0.1)
        >>> (w * w).sum().backward(); opt.step()
        >>> round(w.item(), 4)
        0.8352
    """

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 momentum_decay=4e-3, decoupled_weight_decay=False, *, foreach=None,
                 maximize=False, capturable=False, differentiable=False) -> None:
        check_lr(lr)
        check_nonnegative("epsilon", eps)
        check_betas(betas)
        check_nonnegative("weight_decay", weight_decay)
        check_nonnegative("momentum_decay", momentum_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                        momentum_decay=momentum_decay,
                        decoupled_weight_decay=decoupled_weight_decay, maximize=maximize,
                        foreach=foreach, capturable=capturable, differentiable=differentiable)
        super().__init__(params, defaults)

    def _update(self, group: dict, params: list) -> None:
        lr, (beta1, beta2) = scalar(group["lr"]), group["betas"]
        eps, wd, psi = group["eps"], group["weight_decay"], group["momentum_decay"]
        for p in params:
            st = self.state[p]
            if not st:
                start_state(st, p)
                st["mu_product"] = new_tensor(np.array(1.0, dtype=np.float32))
                add_zeros(st, p, "exp_avg", "exp_avg_sq")
            g = followed_grad(p, group)
            step = count_step(st)
            bc2 = 1 - beta2 ** step
            dt = p._data.dtype.type
            if wd != 0:
                if group["decoupled_weight_decay"]:
                    p._data[...] = p._data * dt(1 - lr * wd)
                else:
                    g = fma(g, wd, p._data)
            mu = beta1 * (1.0 - 0.5 * 0.96 ** (step * psi))
            mu_next = beta1 * (1.0 - 0.5 * 0.96 ** ((step + 1) * psi))
            # the product lives in a float32 tensor: each factor is rounded to float32 first
            mp = st["mu_product"]._data
            mp[...] = mp * np.float32(mu)
            mu_product = float(mp)
            m, v = st["exp_avg"]._data, st["exp_avg_sq"]._data
            m[...] = lerp(m, g, 1 - beta1)
            v[...] = addcmul(v * dt(beta2), g, g, 1 - beta2)
            denom = np.sqrt(v / dt(bc2)) + dt(eps)
            p._data[...] = addcdiv(p._data, g, denom, -lr * (1.0 - mu) / (1.0 - mu_product))
            step2 = (-lr * mu_next) / (1.0 - mu_product * mu_next)
            self._write(p, addcdiv(p._data, m, denom, step2))


__all__ = ["NAdam"]
