"""`optim.Optimizer`: parameter groups, per-parameter state, zero_grad and the step protocol.

PyTorch counterpart: `torch.optim.Optimizer`. A subclass declares its `defaults` and writes
`_update(group, params)`, which changes the parameters' arrays in place; the base runs it
under `no_grad`, bumps version counters and reports the step (with copies from before and
after, for a listener that takes them) to the listener. The arithmetic is numpy on the
parameters' own dtype, with each Python hyperparameter rounded to that dtype first, as
PyTorch's CPU kernels do.
"""
from __future__ import annotations

from collections import defaultdict

import numpy as np

from .. import _events, messages
from .._names import PACKAGE, TorchNamed
from ..grad_mode import enable_grad, no_grad
from ..ops._mm_order import MAX_MACS
from ..tensor import Tensor, counter, new_tensor

_DUPLICATE_WARNING = ("optimizer contains a parameter group with duplicate parameters; in "
                      "future, this will cause an error; see "
                      "github.com/pytorch/pytorch/issues/40967 for more information")


class _RequiredParameter:
    """Marks a hyperparameter every group must give (PyTorch's `required`)."""

    def __repr__(self) -> str:
        return "<required parameter>"


required = _RequiredParameter()


def _typename(obj) -> str:
    if isinstance(obj, Tensor):
        from ..nn.module import _type_name
        return _type_name(obj)
    return f"{type(obj).__module__}.{type(obj).__name__}".replace("builtins.", "")


# Arrays of more elements than this are updated in their own float32 arithmetic (a * alpha
# rounded, then the sum): about five times faster than the float64 detour, and no less
# faithful in practice, since a gradient that large comes out of matrix products that keep
# numpy's (BLAS) order (ops/_mm_order.MAX_MACS), so its bits already differ from PyTorch's
# in the last place; the same trade as NOTE [float32 transcendentals] in ops/_exact.py.
FUSED_MAX = MAX_MACS
_F64 = np.dtype(np.float64)


def fma(a: np.ndarray, alpha, b: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """a + alpha * b rounded once, like the fused multiply-add in PyTorch's CPU kernels.

    Products of float32 numbers are exact in float64, so computing there and rounding once
    reproduces PyTorch's float32 results bit for bit in practice (up to FUSED_MAX elements).
    `out` (which may be `a`) receives the result instead of a new array.
    """
    dt = a.dtype
    if dt == _F64:      # (a dtype against a dtype: against the type np.float64 numpy converts)
        return np.add(a, alpha * b, out=out)
    if a.size > FUSED_MAX:      # see FUSED_MAX: numpy's float32 arithmetic, rounded twice
        return np.add(a, b * dt.type(alpha), out=out)
    alpha = np.float64(dt.type(alpha))
    # the same float64 sums as (a64 + alpha * b64), in one float64 buffer; numpy casts a on
    # the fly, and the sum is rounded to a's type as it is stored. (Plain same-type passes:
    # ufuncs that cast inputs or output through their buffers are about twice as slow.)
    wide = b.astype(np.float64)
    wide *= alpha
    wide += a
    if out is None:
        return wide.astype(dt)
    # the same rounding as np.copyto(out, wide), without copyto's Python-level dispatcher
    # (0.6-2 µs of a 4-9 µs call for W3's biases and second weight, timed alone)
    out[...] = wide
    return out


def lerp(a: np.ndarray, b: np.ndarray, weight: float) -> np.ndarray:
    """a + weight * (b - a), evaluated from whichever end PyTorch's kernel starts at."""
    w = a.dtype.type(weight)
    if w < 0.5:
        return fma(a, w, b - a)
    return fma(b, -(a.dtype.type(1) - w), b - a)


def addcmul(a: np.ndarray, b: np.ndarray, c: np.ndarray, value: float) -> np.ndarray:
    """a + value * b * c (`Tensor.addcmul_`): (value * b) rounded, then one fused step."""
    vb = a.dtype.type(value) * b
    if a.dtype == np.float64:
        return a + vb * c
    return (a.astype(np.float64) + vb.astype(np.float64) * c.astype(np.float64)).astype(a.dtype)


def addcdiv(a: np.ndarray, b: np.ndarray, c: np.ndarray, value: float) -> np.ndarray:
    """a + value * b / c (`Tensor.addcdiv_`), in the kernel's order: (value * b) / c."""
    return a + (a.dtype.type(value) * b) / c


# nn.module's `_reset_grad` (one parameter's part of zero_grad), bound on the first zero_grad:
# importing optim must not load nn, and an import statement in zero_grad cost 2-4 µs a call
_reset_grad = None


def _load_reset_grad():
    global _reset_grad
    from ..nn.module import _reset_grad
    return _reset_grad


class Optimizer(metaclass=TorchNamed):
    """Base class of optimizers: holds `param_groups` (dicts) and `state` (per parameter).

    Example:
        >>> import gradstep.engine as torch
        >>> w = torch.tensor([1.0, 2.0], requires_grad=True)
        >>> opt = torch.optim.SGD([w], lr=0.5)
        >>> (w * w).sum().backward()
        >>> opt.step()
        >>> w.tolist()
        [0.0, 0.0]
        >>> opt.zero_grad(); print(w.grad)
        None
    """

    _torch_name = "torch.optim.optimizer.Optimizer"
    # What step() says when a parameter's gradient is sparse (nn.Embedding(sparse=True)):
    # PyTorch's message for the optimizers that refuse one; None where the rule takes it.
    sparse_grad_error: str | None = "{name} does not support sparse gradients"

    def __init_subclass__(cls, **kw) -> None:
        super().__init_subclass__(**kw)
        if cls.__module__.startswith(PACKAGE + ".optim."):    # print as PyTorch's classes
            cls._torch_name = f"torch.optim.{cls.__name__.lower()}.{cls.__name__}"

    def __init__(self, params, defaults: dict) -> None:
        self.defaults = defaults
        self.state: dict = defaultdict(dict)
        self.param_groups: list = []
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of "
                            f"Tensors or dicts, but got {_typename(params)}")
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for g in groups:
            self.add_param_group(g)

    def add_param_group(self, param_group: dict) -> None:
        """Add a group of parameters with its own hyperparameters (missing ones default)."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group).__name__}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, "
                            "but the ordering of tensors in sets will change between runs. "
                            "Please use a list instead.")
        else:
            param_group["params"] = list(params)
        for p in param_group["params"]:
            if not isinstance(p, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                                + _typename(p))
            if p.grad_fn is not None:
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError("parameter group didn't specify a value of required "
                                 f"optimization parameter {name}")
            param_group.setdefault(name, default)
        ids = [id(p) for p in param_group["params"]]
        if len(set(ids)) != len(ids):
            messages.warn(_DUPLICATE_WARNING)
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        if seen & set(ids):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset every parameter's gradient: to None by default (PyTorch 2.x), else zeros."""
        reset = _reset_grad or _load_reset_grad()
        if _events.listener is not None:
            _events.listener.on_zero_grad(
                self, tuple(p for g in self.param_groups for p in g["params"]),
                bool(set_to_none))
        for group in self.param_groups:
            for p in group["params"]:
                reset(p, set_to_none)

    def step(self, closure=None):
        """Update every parameter that has a gradient; returns closure() if one is given."""
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        self._opt_called = True     # lr_scheduler checks that step() came first
        watched = _events.listener is not None
        # NOTE [listener copies]: the copies of what a step changes are made only for a listener
        # that reads them (Listener.copies). (No local holds the listener: a recorder may
        # keep this frame, and the pair would be a cycle left to the garbage collector.)
        copies = watched and getattr(_events.listener, "copies", True)
        if self._terms is not None and not copies:     # a watched step that raised
            self._terms = None
        stepped: list = []
        before: list = []
        states: list | None = None
        with no_grad():
            for group in self.param_groups:
                params = [p for p in group["params"] if p._grad is not None]
                if not params:
                    continue
                self._check_layouts(params)
                n = len(before)
                if copies:
                    before.extend(p._data.copy() for p in params)
                    states = [_copy_state(self.state.get(p)) for p in params]
                    self._terms = {}
                self._update(group, params)
                for p in params:
                    counter(p)[0] += 1     # each parameter was written in place
                stepped.extend(params)
                if watched:
                    self._report_updates(group, params, before[n:] if copies else None,
                                         states)
        # one event per step() call, covering every group, as the user wrote one call
        if watched and _events.listener is not None and stepped:
            if copies:
                _events.listener.on_optimizer_step(self, tuple(stepped), tuple(before),
                                                   tuple(p._data.copy() for p in stepped))
            else:
                _events.listener.on_optimizer_step(self, tuple(stepped), None,
                                                   tuple(p._data for p in stepped))
        return loss

    def _check_layouts(self, params: list) -> None:
        if self.sparse_grad_error is not None and any(p._grad.is_sparse for p in params):
            raise RuntimeError(self.sparse_grad_error.format(name=type(self).__name__))

    def _update(self, group: dict, params: list) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    # NOTE [the rule's terms]: while a listener watches a step, `_terms` is a dict and each
    # rule hands `_note` the intermediate numbers it computed for a parameter, so that the
    # picture shows the engine's own numbers, never a second computation; unwatched, `_terms`
    # is None and a rule pays one attribute test per parameter.
    _terms: dict | None = None

    def _note(self, p: Tensor, **terms) -> None:
        """Keep copies of one parameter's intermediate numbers for the listener."""
        self._terms[p._uid] = {k: (v.copy() if isinstance(v, np.ndarray) else float(v))
                               for k, v in terms.items()}

    def _report_updates(self, group: dict, params: list, before: list | None,
                        states: list | None) -> None:
        """on_optimizer_update for each parameter of `group` the step updated; `before` and
        `states` are None when the listener takes no copies (NOTE [listener copies])."""
        if before is None or states is None:
            for p in params:
                if _events.listener is not None:
                    _events.listener.on_optimizer_update(self, p, group, None, None, None)
            return
        terms, self._terms = self._terms or {}, None
        for p, b, st in zip(params, before, states):
            if _events.listener is not None:
                _events.listener.on_optimizer_update(self, p, group, b, st,
                                                     terms.get(p._uid, {}))

    @staticmethod
    def _write(p: Tensor, value: np.ndarray) -> None:
        """Store `value` into p's own array (views of p see the change)."""
        p._data[...] = value

    def _buffer(self, p: Tensor, name: str, init=None) -> Tensor:
        """state[p][name], created as zeros like p (or from `init`) on first use."""
        st = self.state[p]
        if name not in st:
            st[name] = new_tensor(np.zeros_like(p._data) if init is None else init.copy())
        return st[name]

    # ---- saving --------------------------------------------------------------------------
    def state_dict(self) -> dict:
        """{'state': {index: state}, 'param_groups': [...]} with parameters as indices."""
        index, groups, n = {}, [], 0
        for g in self.param_groups:
            packed = {k: v for k, v in g.items() if k != "params"}
            packed["params"] = list(range(n, n + len(g["params"])))
            for p in g["params"]:
                index.setdefault(id(p), n)
                n += 1
            groups.append(packed)
        state = {index[id(p)]: dict(s) for p, s in self.state.items() if id(p) in index}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict: dict) -> None:
        groups = state_dict["param_groups"]
        if len(groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        by_index = {}
        for mine, saved in zip(self.param_groups, groups):
            if len(mine["params"]) != len(saved["params"]):
                raise ValueError("loaded state dict contains a parameter group that doesn't "
                                 "match the size of optimizer's group")
            by_index.update(zip(saved["params"], mine["params"]))
            mine.update({k: v for k, v in saved.items() if k != "params"})
        self.state = defaultdict(dict)
        for i, s in state_dict["state"].items():
            self.state[by_index[i]] = {k: (new_tensor(v._data.copy()) if isinstance(v, Tensor)
                                           else v) for k, v in s.items()}

    def __repr__(self) -> str:
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"

    def __getstate__(self) -> dict:
        return {"defaults": self.defaults, "state": self.state,
                "param_groups": self.param_groups}


def _copy_state(st: dict | None) -> dict:
    """Copies of a parameter's state entries (tensors as arrays), before a step changes them."""
    if not st:
        return {}
    return {k: (v._data.copy() if isinstance(v, Tensor) else v) for k, v in st.items()}


def check_lr(lr) -> None:
    if isinstance(lr, Tensor) and lr.numel() != 1:
        raise ValueError("Tensor lr must be 1-element")
    if not 0.0 <= float(lr):
        raise ValueError(f"Invalid learning rate: {lr}")


def check_nonnegative(what: str, value) -> None:
    """PyTorch's "Invalid <what> value" for a hyperparameter below zero (eps, weight_decay...)."""
    if not 0.0 <= value:
        raise ValueError(f"Invalid {what} value: {value}")


def start_state(st: dict, p: Tensor, *buffers: str) -> None:
    """A parameter's first state, keys in PyTorch's order: the step count (PyTorch keeps it as
    a float32 0-d tensor, which `state_dict()` shows), then zero buffers shaped like `p`."""
    st["step"] = new_tensor(np.array(0.0, dtype=np.float32))
    add_zeros(st, p, *buffers)


def add_zeros(st: dict, p: Tensor, *buffers: str) -> None:
    for name in buffers:
        st[name] = new_tensor(np.zeros_like(p._data))


def count_step(st: dict) -> float:
    """One more step in the state's float32 count; the new count as a Python float."""
    st["step"]._data[...] += 1
    return float(st["step"]._data)


def followed_grad(p: Tensor, group: dict) -> np.ndarray:
    """The gradient an update descends: negated when the group maximizes."""
    return -p._grad._data if group["maximize"] else p._grad._data


def scalar(value) -> float:
    """A hyperparameter that may be given as a 1-element Tensor, as a float."""
    return float(value.item()) if isinstance(value, Tensor) else value


__all__ = ["Optimizer", "required"]
