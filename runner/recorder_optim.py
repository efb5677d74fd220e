"""The recorder's optimizer events: each parameter's update, zero_grad, and lr schedulers.

The part of `runner/recorder.py`'s Recorder that `engine/optim` reports to: one
`optimizer_update` record per parameter of a step (the rule's hyperparameters, the
parameter's gradient and value before and after, its `optimizer.state` before and after, and
the rule's intermediate numbers, all as the engine computed them), one `zero_grad` record per
`optimizer.zero_grad()` and one `lr_step` record per scheduler step. `RENDERERS` turns those
records into the events of docs/trace-format.md ("Optimizer steps, one parameter at a time").
"""
from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from gradstep.engine.tensor import Tensor

from .trace_numbers import num

# Group entries that are hyperparameters of the rule, in the order the page lists them;
# the others (foreach, fused, capturable, differentiable, initial_lr) change how PyTorch runs
# the step, not what it computes.
HYPER_KEYS = ("lr", "momentum", "dampening", "weight_decay", "nesterov", "betas", "eps",
              "amsgrad", "decoupled_weight_decay", "alpha", "centered", "lr_decay",
              "initial_accumulator_value", "maximize")


class OptimizerEvents:
    """Listener methods for `engine/optim` (mixed into the Recorder)."""

    _window: list
    limits: dict
    _tid: Any
    _where: Any

    def _optim_memory(self) -> tuple:
        """(optimizer -> (its scheduler's name, epoch), optimizer -> {param uid: index}),
        made on first use: weak keys, so a dropped optimizer takes its entries along."""
        mem = self.__dict__.get("_optim_mem")
        if mem is None:
            mem = self.__dict__["_optim_mem"] = (weakref.WeakKeyDictionary(),
                                                 weakref.WeakKeyDictionary())
        return mem

    def _param_index(self, optimizer, p: Tensor) -> tuple:
        """(p's place among the optimizer's parameters, how many it has)."""
        index = self._optim_memory()[1]
        groups = optimizer.param_groups
        n = sum(len(g["params"]) for g in groups)
        known = index.get(optimizer)
        if known is None or len(known) != n:    # new, or add_param_group() since
            flat = [q for g in groups for q in g["params"]]
            known = index[optimizer] = {q._uid: i for i, q in enumerate(flat)}
        return known.get(p._uid, 0), n

    def on_optimizer_update(self, optimizer, param, group, before, state_before, terms) -> None:
        line, _, _ = self._where()
        # Only values the page writes out keep their numbers: a dozen values per parameter
        # per step, with a printed form each, would crowd the rest of a big model's trace out
        # of the byte cap (docs/trace-format.md, section 10).
        cap = self.limits["data_max_numel"]
        tid = self._tid(param, line)
        k, n = self._param_index(optimizer, param)
        groups = optimizer.param_groups
        g_index = next((i for i, g in enumerate(groups) if g is group), 0)
        sched = self._optim_memory()[0].get(optimizer)
        grad = param._grad
        self._window.append((
            "optimizer_update", line, type(optimizer).__name__, tid, k, n, g_index,
            _hyper(group), sched,
            None if grad is None else _snap(grad._data, cap), _snap(before, cap, param._rg),
            _snap(param._data, cap, param._rg),
            [(name, _snap(v, cap)) for name, v in state_before.items() if _is_array(v)],
            [(name, _snap(v._data, cap)) for name, v in optimizer.state[param].items()
             if isinstance(v, Tensor)],
            [(name, v if isinstance(v, float) else _snap(v, cap)) for name, v in terms.items()]))

    def on_zero_grad(self, optimizer, params, set_to_none) -> None:
        line, _, _ = self._where()
        rows = [(self._tid(p, line), p._grad is not None) for p in params]
        self._window.append(("zero_grad", line, type(optimizer).__name__, bool(set_to_none),
                             rows))

    def on_lr_step(self, scheduler, before, after) -> None:
        line, _, _ = self._where()
        epoch = int(scheduler.last_epoch)
        self._optim_memory()[0][scheduler.optimizer] = (type(scheduler).__name__, epoch)
        self._window.append(("lr_step", line, type(scheduler).__name__, epoch,
                             [_float(x) for x in before], [_float(x) for x in after]))


def _is_array(v) -> bool:
    return isinstance(v, np.ndarray)


def _snap(a: np.ndarray, cap: int, requires_grad: bool = False) -> tuple:
    a = np.asarray(a)
    return (a.tobytes() if a.size <= cap else None, a.shape, a.dtype, requires_grad, None)


def _float(x) -> float:
    return float(x.item()) if isinstance(x, Tensor) else float(x)


def _hyper(group: dict) -> dict:
    """The group's hyperparameters as plain numbers (a Tensor lr as its float)."""
    out = {}
    for key in HYPER_KEYS:
        if key in group:
            v = group[key]
            out[key] = [float(b) for b in v] if isinstance(v, tuple) else (
                v if isinstance(v, bool) else _float(v))
    return out


# ---- rendering: records -> events (called by runner/trace_build.py's Builder) -------------
def _ev_optimizer_update(b, r) -> dict:
    (_, _, name, tid, k, n, g_index, hyper, sched, grad, before, after,
     state_before, state, terms) = r
    digits = b.digits

    def number(x):
        return [num(v, digits) for v in x] if isinstance(x, list) else num(x, digits)

    return {"optimizer": name, "tensor": tid, "index": k, "count": n, "group": g_index,
            "lr": number(hyper["lr"]) if "lr" in hyper else None,
            "hyper": {key: number(v) for key, v in hyper.items()},
            "scheduler": None if sched is None else {"name": sched[0], "epoch": sched[1]},
            # the page prints only `after` (the parameter's value from here on, which the
            # inspector shows); the rule's lines show the numbers (NOTE [text where it is
            # read] in runner/trace_build.py)
            "grad": None if grad is None else b.value(grad, False),
            "before": b.value(before, False), "after": b.value(after),
            "state_before": [{"name": s, "value": b.value(v, False)} for s, v in state_before],
            "state": [{"name": s, "value": b.value(v, False)} for s, v in state],
            "terms": [{"name": t, "number": num(v, digits)} if isinstance(v, float)
                      else {"name": t, "value": b.value(v, False)} for t, v in terms]}


def _ev_zero_grad(b, r) -> dict:
    return {"optimizer": r[2], "set_to_none": r[3],
            "params": [{"tensor": t, "had_grad": had} for t, had in r[4]]}


def _ev_lr_step(b, r) -> dict:
    return {"scheduler": r[2], "epoch": r[3], "before": [num(x, b.digits) for x in r[4]],
            "after": [num(x, b.digits) for x in r[5]]}


RENDERERS = {"optimizer_update": _ev_optimizer_update, "zero_grad": _ev_zero_grad,
             "lr_step": _ev_lr_step}
