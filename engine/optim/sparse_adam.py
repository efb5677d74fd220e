"""`optim.SparseAdam`: Adam for sparse gradients (`nn.Embedding(sparse=True)`'s weight).

PyTorch counterpart: `torch.optim.SparseAdam`. Only the rows a step's gradient names change:
with g the coalesced gradient's rows and m, v the moments' same rows,
m += (1 - beta1) * (g - m), v += (1 - beta2) * (g * g - v) and
p -= lr * sqrt(1 - beta2**t) / (1 - beta1**t) * m / (sqrt(v) + eps). `step` is a plain int.
"""
from __future__ import annotations

import math

import numpy as np

from ..tensor import new_tensor
from .optimizer import Optimizer, scalar


class SparseAdam(Optimizer):
    """Lazy Adam: moments and parameters change only in the rows that got a gradient.

    Example:
        >>> import gradstep.engine as torch
        >>> emb = torch.nn.Embedding(3, 2, sparse=True)
        >>> opt = torch.optim.SparseAdam(emb.parameters(), lr=0.1)
        >>> before = emb.weight.detach().clone()
        >>> emb(torch.tensor([1])).sum().backward(); opt.step()
        >>> (emb.weight - before).abs().sum(dim=1).gt(0).tolist()
        [False, True, False]
    """

    sparse_grad_error = None

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, maximize=False) -> None:
        if not 0.0 < scalar(lr):
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        for i in (0, 1):
            if not 0.0 <= betas[i] < 1.0:
                raise ValueError(f"Invalid beta parameter at index {i}: {betas[i]}")
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, maximize=maximize))

    def _check_layouts(self, params: list) -> None:
        if any(not p._grad.is_sparse for p in params):
            raise RuntimeError("SparseAdam does not support dense gradients, please consider "
                               "Adam instead")

    def _update(self, group: dict, params: list) -> None:
        lr, eps = scalar(group["lr"]), group["eps"]
        beta1, beta2 = group["betas"]
        for p in params:
            st = self.state[p]
            if not st:
                st["step"] = 0
                st["exp_avg"] = new_tensor(np.zeros_like(p._data))
                st["exp_avg_sq"] = new_tensor(np.zeros_like(p._data))
            st["step"] += 1
            grad = p._grad.coalesce()
            rows, g = grad._ind[0], grad._val
            if group["maximize"]:
                g = -g
            if not rows.size:
                continue
            dt = g.dtype.type
            m, v = st["exp_avg"]._data, st["exp_avg_sq"]._data
            old_m, old_v = m[rows], v[rows]
            m_step = (g - old_m) * dt(1 - beta1)
            v_step = (g * g - old_v) * dt(1 - beta2)
            m[rows] += m_step
            v[rows] += v_step
            numer = m_step + old_m
            denom = np.sqrt(v_step + old_v) + dt(eps)
            t = st["step"]
            step_size = lr * math.sqrt(1 - beta2 ** t) / (1 - beta1 ** t)
            update = dt(-step_size) * (numer / denom)
            if self._terms is not None:     # NOTE [the rule's terms] in optimizer.py
                self._note(p, exp_avg=m[rows], exp_avg_sq=v[rows])
            p._data[rows] += update


__all__ = ["SparseAdam"]
