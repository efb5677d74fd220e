"""`optim.Adagrad`: scale each coordinate's step by the root of its summed squared gradients.

PyTorch counterpart: `torch.optim.Adagrad` (single-tensor path, the one it takes on the CPU).
Per step t: clr = lr / (1 + (t - 1) * lr_decay); sum += g * g; p -= clr * g / (sqrt(sum) + eps),
with g = grad + weight_decay * p. Its state ("step", "sum") is created in the constructor, as
PyTorch's is, so `state_dict()` lists it before the first step.
"""
from __future__ import annotations

import numpy as np

from ..tensor import new_tensor
from .optimizer import (Optimizer, addcdiv, addcmul, check_lr, check_nonnegative, count_step, fma,
                        followed_grad, scalar)


class Adagrad(Optimizer):
    """Adagrad (Duchi et al., 2011), with PyTorch's lr_decay and float32 roundings.

    Example:
        >>> import gradstep.engine as torch
        >>> w = torch.tensor([1.0], requires_grad=True)
        >>> opt = torch.optim.Adagrad([w], lr=0.1)
        >>> (w * w).sum().backward(); opt.step()
        >>> round(w.item(), 4)
        0.9
    """

    def _check_layouts(self, params: list) -> None:
        # PyTorch's Adagrad has a rule of its own for sparse gradients, which is not here
        if any(p._grad.is_sparse for p in params):
            raise NotImplementedError("Adagrad with sparse gradients (nn.Embedding(sparse=True))"
                                      " is not supported yet")

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0,
                 eps=1e-10, foreach=None, *, maximize=False, differentiable=False,
                 fused=None) -> None:
        check_lr(lr)
        check_nonnegative("lr_decay", lr_decay)
        check_nonnegative("weight_decay", weight_decay)
        check_nonnegative("initial_accumulator_value", initial_accumulator_value)
        check_nonnegative("epsilon", eps)
        defaults = dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                        initial_accumulator_value=initial_accumulator_value, foreach=foreach,
                        maximize=maximize, differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                self._init_state(p, initial_accumulator_value)

    def _init_state(self, p, value) -> None:
        st = self.state[p]
        st["step"] = new_tensor(np.array(0.0, dtype=np.float32))
        st["sum"] = new_tensor(np.full_like(p._data, value))

    def _update(self, group: dict, params: list) -> None:
        lr, lr_decay, eps = scalar(group["lr"]), group["lr_decay"], group["eps"]
        wd = group["weight_decay"]
        for p in params:
            if not self.state[p]:       # added later: PyTorch reads the constructor's value
                self._init_state(p, self.defaults["initial_accumulator_value"])
            st = self.state[p]
            g = followed_grad(p, group)
            step = count_step(st)
            if wd != 0:
                g = fma(g, wd, p._data)
            clr = lr / (1 + (step - 1) * lr_decay)
            s = st["sum"]._data
            s[...] = addcmul(s, g, g, 1)
            std = np.sqrt(s)
            std = std + std.dtype.type(eps)
            if self._terms is not None:     # NOTE [the rule's terms] in optimizer.py
                self._note(p, d_p=g, clr=clr, std=std)
            self._write(p, addcdiv(p._data, g, std, -clr))


__all__ = ["Adagrad"]
