"""The base of `optim.lr_scheduler`'s schedulers (PyTorch's `LRScheduler`).

A scheduler records each group's `initial_lr`, counts `last_epoch` and, on `step()`, writes
the new rate into `param_groups[i]["lr"]` (in PyTorch's chainable form, so the floats agree;
`step(epoch)` jumps by the closed form where a scheduler has one).
"""
from __future__ import annotations

from .. import _events, messages
from .._names import PACKAGE, TorchNamed
from .optimizer import Optimizer

_ORDER_WARNING = ("Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch "
                  "1.1.0 and later, you should call them in the opposite order: "
                  "`optimizer.step()` before `lr_scheduler.step()`.  Failure to do this will "
                  "result in PyTorch skipping the first value of the learning rate schedule. "
                  "See more details at "
                  "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate")
_EPOCH_WARNING = ("The epoch parameter in `scheduler.step()` was not necessary and is being "
                  "deprecated where possible. Please use `scheduler.step()` to step the "
                  "scheduler. During the deprecation, if epoch is different from None, the "
                  "closed form is used instead of the new chainable form, where available. "
                  "Please open an issue if you are unable to replicate your use case: "
                  "https://github.com/pytorch/pytorch/issues/new/choose.")
_GET_LR_WARNING = ("To get the last learning rate computed by the scheduler, please use "
                   "`get_last_lr()`.")


class LRScheduler(metaclass=TorchNamed):
    """Base class: subclasses give `get_lr()` for the current `last_epoch`.

    Example:
        >>> import gradstep.engine as torch
        >>> opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)
        >>> sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
        >>> opt.step(); sched.step(); sched.get_last_lr()
        [0.05]
    """

    _torch_name = "torch.optim.lr_scheduler.LRScheduler"

    def __init_subclass__(cls, **kw) -> None:
        super().__init_subclass__(**kw)
        if cls.__module__.startswith(PACKAGE + ".optim."):    # print as PyTorch's classes
            cls._torch_name = f"torch.optim.lr_scheduler.{cls.__name__}"

    def __repr__(self) -> str:
        return f"<{type(self)._torch_name} object at {hex(id(self))}>"

    # PyTorch keeps both flags as instance attributes once set, so state_dict() lists them:
    # _is_initial is True during the constructor's first step (which must not move the rate),
    # _get_lr_called_within_step while step() asks get_lr() for the next rates
    _is_initial = False
    _get_lr_called_within_step = False

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", group["lr"])
        self.base_lrs = [group["initial_lr"] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        optimizer._opt_called = False    # Optimizer.step sets it: the order check below
        self._initial_step()

    def _initial_step(self) -> None:
        """The constructor's step, which sets the first rate without counting as a step."""
        self._step_count = 0
        self._is_initial = True
        try:
            self.step()
        finally:
            self._is_initial = False

    def get_lr(self) -> list:  # pragma: no cover - every scheduler defines it
        raise NotImplementedError

    def get_last_lr(self) -> list:
        return self._last_lr

    def step(self, epoch=None) -> None:
        if self._step_count == 1 and not self.optimizer._opt_called:
            messages.warn(_ORDER_WARNING)
        self._step_count += 1
        if epoch is not None:
            messages.warn(_EPOCH_WARNING)
        self._update_lr(epoch)

    def _update_lr(self, epoch=None) -> None:
        """Move to the next epoch, or jump to `epoch` (by the closed form where there is
        one), and write the rates into the groups."""
        watched = _events.listener is not None
        before = self._current() if watched else None
        if epoch is None:
            self.last_epoch += 1
            lrs = self._next_lrs()
        else:
            self.last_epoch = epoch
            lrs = self._closed_form_lrs()
            if lrs is None:
                lrs = self._next_lrs()
        for group, lr in zip(self.optimizer.param_groups, lrs):
            group["lr"] = lr
        self._last_lr = [group["lr"] for group in self.optimizer.param_groups]
        if watched and _events.listener is not None:
            _events.listener.on_lr_step(self, before, list(self._last_lr))

    def _closed_form_lrs(self):
        """The rates at last_epoch from base_lrs alone (PyTorch's _get_closed_form_lr), or
        None for a scheduler without a closed form."""
        return None

    def _next_lrs(self) -> list:
        """get_lr() as step() calls it: a user's own get_lr() call is warned about, since in
        the chainable form it computes one step further than get_last_lr()."""
        self._get_lr_called_within_step = True
        try:
            return self.get_lr()
        finally:
            self._get_lr_called_within_step = False

    def _warn_outside_step(self) -> None:
        if not self._get_lr_called_within_step:
            messages.warn(_GET_LR_WARNING)

    def state_dict(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "optimizer"}

    def load_state_dict(self, state_dict: dict) -> None:
        self.__dict__.update(state_dict)

    def _current(self) -> list:
        return [group["lr"] for group in self.optimizer.param_groups]
