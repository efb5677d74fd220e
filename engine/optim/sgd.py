"""`optim.SGD`: stochastic gradient descent with momentum, dampening, Nesterov, weight decay.

PyTorch counterpart: `torch.optim.SGD` (its single-tensor code path). For each parameter:
g = grad (+ weight_decay * p); with momentum, buf = momentum * buf + (1 - dampening) * g
(buf = g on the first step) and g = buf, or g + momentum * buf for Nesterov; p -= lr * g.
"""
from __future__ import annotations

from ..tensor import new_tensor
from .optimizer import Optimizer, check_lr, fma, scalar


class SGD(Optimizer):
    """Gradient descent, optionally with (Nesterov) momentum and L2 weight decay.

    Example:
        >>> import gradstep.engine as torch
        >>> w = torch.tensor([1.0], requires_grad=True)
        >>> opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)
        >>> for _ in range(2):
        ...     opt.zero_grad(); (w * w).sum().backward(); opt.step()
        >>> round(w.item(), 4)
        0.46
    """

    sparse_grad_error = None

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0,
                 nesterov=False, *, maximize=False, foreach=None, differentiable=False,
                 fused=None) -> None:
        check_lr(lr)
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening,
                        weight_decay=weight_decay, nesterov=nesterov, maximize=maximize,
                        foreach=foreach, differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)

    def _update(self, group: dict, params: list) -> None:
        lr, momentum = scalar(group["lr"]), group["momentum"]
        wd, damp = group["weight_decay"], group["dampening"]
        maximize, nesterov = group["maximize"], group["nesterov"]     # read once, not per p
        for p in params:
            if p._grad.is_sparse and (wd != 0 or momentum == 0):
                self._sparse_step(p, lr, wd, maximize)
                continue
            g = p._grad._data
            if maximize:
                g = -g
            if wd != 0:
                g = fma(g, wd, p._data)
            d_p = g
            if momentum != 0:
                st = self.state[p]
                buf = st.get("momentum_buffer")
                if buf is None:
                    buf = st["momentum_buffer"] = new_tensor(g.copy())
                else:
                    fma(buf._data * buf._data.dtype.type(momentum), 1 - damp, g,
                        out=buf._data)
                g = fma(g, momentum, buf._data) if nesterov else buf._data
            if self._terms is not None:     # NOTE [the rule's terms] in optimizer.py
                self._note(p, d_p=d_p, direction=g)
            fma(p._data, -lr, g, out=p._data)     # in place, as _write would store it

    def _sparse_step(self, p, lr: float, wd: float, maximize: bool) -> None:
        """p -= lr * grad for a sparse grad: each entry added into its row, in order, as
        PyTorch adds a sparse tensor into a dense one. (With momentum the buffer is kept
        dense here; PyTorch keeps it sparse, with the same values.)"""
        if wd != 0:     # PyTorch's grad.add(p, alpha=weight_decay), sparse + dense
            raise RuntimeError("add(sparse, dense) is not supported. Use add(dense, sparse) "
                               "instead.")
        g = p._grad
        values = -g._val if maximize else g._val
        if self._terms is not None:     # NOTE [the rule's terms] in optimizer.py
            dense = -g._data if maximize else g._data
            self._note(p, d_p=dense, direction=dense)
        data = p._data
        for row, v in zip(g._ind[0].tolist(), values):
            fma(data[row], -lr, v, out=data[row])


__all__ = ["SGD"]
