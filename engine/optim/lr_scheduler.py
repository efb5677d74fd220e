"""`optim.lr_scheduler`: change each parameter group's learning rate as training goes on.

PyTorch counterparts: `LRScheduler`, `StepLR`, `MultiStepLR`, `ExponentialLR`, `LambdaLR`,
`LinearLR`, `ConstantLR`, `PolynomialLR`, `CosineAnnealingLR`, `CosineAnnealingWarmRestarts`,
`OneCycleLR`, `SequentialLR` (one scheduler after another) and `ReduceLROnPlateau` (which
follows a metric, not epochs).
The base class, ReduceLROnPlateau and SequentialLR have files of their own; this module is
`torch.optim.lr_scheduler` itself and holds the epoch-driven schedules.
"""
from __future__ import annotations

import math
import types
from bisect import bisect_right
from collections import Counter

from .optimizer import Optimizer
from .reduce_lr_on_plateau import ReduceLROnPlateau
from .scheduler_base import LRScheduler
from .sequential_lr import SequentialLR


class StepLR(LRScheduler):
    """Multiply the rate by gamma every step_size epochs.

    Example:
        >>> import gradstep.engine as torch
        >>> opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
        >>> sched = StepLR(opt, step_size=2, gamma=0.5)
        >>> [(opt.step(), sched.step(), sched.get_last_lr()[0])[2] for _ in range(4)]
        [1.0, 0.5, 0.5, 0.25]
    """

    def __init__(self, optimizer, step_size: int, gamma: float = 0.1, last_epoch: int = -1):
        self.step_size, self.gamma = step_size, gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_outside_step()
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return self._current()
        return [lr * self.gamma for lr in self._current()]

    def _closed_form_lrs(self) -> list:
        return [base * self.gamma ** (self.last_epoch // self.step_size)
                for base in self.base_lrs]


class MultiStepLR(LRScheduler):
    """Multiply the rate by gamma at each milestone epoch (twice for a repeated milestone)."""

    def __init__(self, optimizer, milestones, gamma: float = 0.1, last_epoch: int = -1):
        self.milestones, self.gamma = Counter(milestones), gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_outside_step()
        if self.last_epoch not in self.milestones:
            return self._current()
        return [lr * self.gamma ** self.milestones[self.last_epoch] for lr in self._current()]

    def _closed_form_lrs(self) -> list:
        milestones = sorted(self.milestones.elements())
        return [base * self.gamma ** bisect_right(milestones, self.last_epoch)
                for base in self.base_lrs]


class ExponentialLR(LRScheduler):
    """Multiply the rate by gamma every epoch."""

    def __init__(self, optimizer, gamma: float, last_epoch: int = -1):
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_outside_step()
        if self._is_initial:
            return self._current()
        return [lr * self.gamma for lr in self._current()]

    def _closed_form_lrs(self) -> list:
        return [base * self.gamma ** self.last_epoch for base in self.base_lrs]


class LambdaLR(LRScheduler):
    """rate = initial rate * lr_lambda(epoch) (one function, or one per group)."""

    def __init__(self, optimizer, lr_lambda, last_epoch: int = -1):
        n = len(optimizer.param_groups)
        if isinstance(lr_lambda, (list, tuple)):
            if len(lr_lambda) != n:
                raise ValueError(f"Expected {n} lr_lambdas, but got {len(lr_lambda)}")
            self.lr_lambdas = list(lr_lambda)
        else:
            self.lr_lambdas = [lr_lambda] * n
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_outside_step()
        return [base * fn(self.last_epoch) for fn, base in zip(self.lr_lambdas, self.base_lrs)]

    def state_dict(self) -> dict:
        """As PyTorch saves it: functions and lambdas cannot be, so they are None (last);
        a callable object is kept as a copy of its __dict__."""
        state = {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "lr_lambdas")}
        state["lr_lambdas"] = [None if isinstance(fn, types.FunctionType) else dict(vars(fn))
                               for fn in self.lr_lambdas]
        return state

    def load_state_dict(self, state_dict: dict) -> None:
        saved = state_dict["lr_lambdas"]
        self.__dict__.update({k: v for k, v in state_dict.items() if k != "lr_lambdas"})
        for fn, attrs in zip(self.lr_lambdas, saved):
            if attrs is not None:
                vars(fn).update(attrs)


class LinearLR(LRScheduler):
    """Scale the rate linearly from start_factor to end_factor over total_iters epochs."""

    def __init__(self, optimizer, start_factor: float = 1.0 / 3, end_factor: float = 1.0,
                 total_iters: int = 5, last_epoch: int = -1):
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError("Starting multiplicative factor expected to be greater than 0 and "
                             "less or equal to 1.")
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        self.start_factor, self.end_factor = start_factor, end_factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_outside_step()
        if self.last_epoch == 0:
            return [lr * self.start_factor for lr in self._current()]
        if self._is_initial or self.last_epoch > self.total_iters:
            return self._current()
        span = self.end_factor - self.start_factor
        ratio = 1.0 + span / (self.total_iters * self.start_factor
                              + (self.last_epoch - 1) * span)
        return [lr * ratio for lr in self._current()]

    def _closed_form_lrs(self) -> list:
        span = self.end_factor - self.start_factor
        return [base * (self.start_factor
                        + span * min(self.total_iters, self.last_epoch) / self.total_iters)
                for base in self.base_lrs]


class ConstantLR(LRScheduler):
    """Scale the rate by factor until epoch total_iters, then restore it."""

    def __init__(self, optimizer, factor: float = 1.0 / 3, total_iters: int = 5,
                 last_epoch: int = -1):
        if factor > 1.0 or factor < 0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        self.factor, self.total_iters = factor, total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_outside_step()
        if self.last_epoch == 0:
            return [lr * self.factor for lr in self._current()]
        if self.last_epoch != self.total_iters:
            return self._current()
        return [lr * (1.0 / self.factor) for lr in self._current()]

    def _closed_form_lrs(self) -> list:
        restored = (self.last_epoch >= self.total_iters) * (1 - self.factor)
        return [base * (self.factor + restored) for base in self.base_lrs]


class PolynomialLR(LRScheduler):
    """Decay the rate to 0 over total_iters epochs as (1 - epoch / total_iters) ** power."""

    def __init__(self, optimizer, total_iters: int = 5, power: float = 1.0,
                 last_epoch: int = -1):
        self.total_iters, self.power = total_iters, power
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_outside_step()
        if self._is_initial or self.last_epoch > self.total_iters:
            return self._current()
        t, n = self.last_epoch, self.total_iters
        decay = ((1.0 - t / n) / (1.0 - (t - 1) / n)) ** self.power
        return [lr * decay for lr in self._current()]

    def _closed_form_lrs(self) -> list:
        t, n = self.last_epoch, self.total_iters
        return [base * (1.0 - min(n, t) / n) ** self.power for base in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    """Follow half a cosine from the initial rate down to eta_min over T_max epochs (and back
    up, if training goes on), in PyTorch's recursive form."""

    def __init__(self, optimizer, T_max: int, eta_min: float = 0.0,
                 last_epoch: int = -1):
        self.T_max, self.eta_min = T_max, eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_outside_step()
        t, lo = self.last_epoch, self.eta_min
        if self._is_initial:
            return self._current()
        if self._step_count == 1 and t > 0:      # resumed at last_epoch: the closed form
            return [lo + (base - lo) * (1 + math.cos(t * math.pi / self.T_max)) / 2
                    for base in self.base_lrs]
        if (t - 1 - self.T_max) % (2 * self.T_max) == 0:
            bump = (1 - math.cos(math.pi / self.T_max)) / 2
            return [lr + (base - lo) * bump for lr, base in zip(self._current(), self.base_lrs)]
        ratio = ((1 + math.cos(math.pi * t / self.T_max))
                 / (1 + math.cos(math.pi * (t - 1) / self.T_max)))
        return [ratio * (lr - lo) + lo for lr in self._current()]

    def _closed_form_lrs(self) -> list:
        lo = self.eta_min
        return [lo + (base - lo) * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2
                for base in self.base_lrs]


class OneCycleLR(LRScheduler):
    """The 1cycle policy: the rate warms up from max_lr / div_factor to max_lr over pct_start
    of total_steps, then anneals to initial / final_div_factor (cosine or linear), while the
    momentum (or Adam's beta1) cycles the other way between max_momentum and base_momentum."""

    def __init__(self, optimizer, max_lr, total_steps=None, epochs=None, steps_per_epoch=None,
                 pct_start: float = 0.3, anneal_strategy: str = "cos",
                 cycle_momentum: bool = True, base_momentum=0.85, max_momentum=0.95,
                 div_factor: float = 25.0, final_div_factor: float = 1e4,
                 three_phase: bool = False, last_epoch: int = -1):
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        self.total_steps = _total_steps(total_steps, epochs, steps_per_epoch)
        n = self.total_steps
        ends = ([float(pct_start * n) - 1, float(2 * pct_start * n) - 2, n - 1] if three_phase
                else [float(pct_start * n) - 1, n - 1])
        names = ([("initial_lr", "max_lr", "max_momentum", "base_momentum"),
                  ("max_lr", "initial_lr", "base_momentum", "max_momentum"),
                  ("initial_lr", "min_lr", "max_momentum", "max_momentum")] if three_phase
                 else [("initial_lr", "max_lr", "max_momentum", "base_momentum"),
                       ("max_lr", "min_lr", "base_momentum", "max_momentum")])
        self._phases = list(zip(ends, names))
        if pct_start < 0 or pct_start > 1 or not isinstance(pct_start, float):
            raise ValueError(f"Expected float between 0 and 1 pct_start, but got {pct_start}")
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError(f"anneal_strategy must be one of 'cos' or 'linear', instead got "
                             f"{anneal_strategy}")
        self._anneal = anneal_strategy
        for group, top in zip(optimizer.param_groups, _per_group("max_lr", optimizer, max_lr)):
            if last_epoch == -1:
                group["initial_lr"] = top / div_factor
                group["max_lr"] = top
                group["min_lr"] = group["initial_lr"] / final_div_factor
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
                raise ValueError("optimizer must support momentum or beta1 with "
                                 "`cycle_momentum` option enabled")
            self.use_beta1 = "betas" in optimizer.defaults
            tops = _per_group("max_momentum", optimizer, max_momentum)
            bases = _per_group("base_momentum", optimizer, base_momentum)
            for group, top, base in zip(optimizer.param_groups, tops, bases):
                if last_epoch == -1:
                    self._set_momentum(group, top)
                    group["max_momentum"], group["base_momentum"] = top, base
        super().__init__(optimizer, last_epoch)

    def _set_momentum(self, group: dict, value: float) -> None:
        if self.use_beta1:
            group["betas"] = (value, *group["betas"][1:])
        else:
            group["momentum"] = value

    def _anneal_between(self, start: float, end: float, pct: float) -> float:
        if self._anneal == "cos":
            return end + (start - end) / 2.0 * (math.cos(math.pi * pct) + 1)
        return (end - start) * pct + start

    def get_lr(self) -> list:
        self._warn_outside_step()
        step = self.last_epoch
        if step > self.total_steps:
            raise ValueError(f"Tried to step {step} times. The specified number of total steps "
                             f"is {self.total_steps}")
        lrs = []
        for group in self.optimizer.param_groups:
            start = 0.0
            for i, (end, (lr0, lr1, m0, m1)) in enumerate(self._phases):
                if step <= end or i == len(self._phases) - 1:
                    pct = (step - start) / (end - start)
                    lrs.append(self._anneal_between(group[lr0], group[lr1], pct))
                    if self.cycle_momentum:
                        self._set_momentum(group, self._anneal_between(group[m0], group[m1],
                                                                       pct))
                    break
                start = end
        return lrs


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine annealing from the initial rate to eta_min over T_0 epochs, then a restart; each
    later cycle is T_mult times longer. `step(epoch)` may also jump to a (fractional) epoch."""

    def __init__(self, optimizer, T_0: int, T_mult: int = 1, eta_min: float = 0.0,
                 last_epoch: int = -1):
        if T_0 <= 0 or not isinstance(T_0, int):
            raise ValueError(f"Expected positive integer T_0, but got {T_0}")
        if T_mult < 1 or not isinstance(T_mult, int):
            raise ValueError(f"Expected integer T_mult >= 1, but got {T_mult}")
        if not isinstance(eta_min, (float, int)):
            raise ValueError(f"Expected float or int eta_min, but got {eta_min} of type "
                             f"{type(eta_min)}")
        self.T_0, self.T_i, self.T_mult, self.eta_min = T_0, T_0, T_mult, eta_min
        self.T_cur = last_epoch
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list:
        self._warn_outside_step()
        cos = 1 + math.cos(math.pi * self.T_cur / self.T_i)
        return [self.eta_min + (base - self.eta_min) * cos / 2 for base in self.base_lrs]

    def step(self, epoch=None) -> None:
        self._step_count += 1
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur += 1
            if self.T_cur >= self.T_i:
                self.T_cur, self.T_i = self.T_cur - self.T_i, self.T_i * self.T_mult
        elif epoch < 0:
            raise ValueError(f"Expected non-negative epoch, but got {epoch}")
        elif epoch >= self.T_0 and self.T_mult == 1:
            self.T_cur = epoch % self.T_0
        elif epoch >= self.T_0:
            n = int(math.log((epoch / self.T_0 * (self.T_mult - 1) + 1), self.T_mult))
            self.T_cur = epoch - self.T_0 * (self.T_mult ** n - 1) / (self.T_mult - 1)
            self.T_i = self.T_0 * self.T_mult ** n
        else:
            self.T_i, self.T_cur = self.T_0, epoch
        self.last_epoch = math.floor(epoch)
        for group, lr in zip(self.optimizer.param_groups, self._next_lrs()):
            group["lr"] = lr
        self._last_lr = self._current()

def _total_steps(total_steps, epochs, steps_per_epoch) -> int:
    if total_steps is not None:
        if total_steps <= 0 or not isinstance(total_steps, int):
            raise ValueError(f"Expected positive integer total_steps, but got {total_steps}")
        return total_steps
    if epochs is not None and steps_per_epoch is not None:
        if not isinstance(epochs, int) or epochs <= 0:
            raise ValueError(f"Expected positive integer epochs, but got {epochs}")
        if not isinstance(steps_per_epoch, int) or steps_per_epoch <= 0:
            raise ValueError(f"Expected positive integer steps_per_epoch, but got "
                             f"{steps_per_epoch}")
        return epochs * steps_per_epoch
    raise ValueError("You must define either total_steps OR (epochs AND steps_per_epoch)")


def _per_group(name: str, optimizer, value) -> list:
    n = len(optimizer.param_groups)
    if isinstance(value, (list, tuple)):
        if len(value) != n:
            raise ValueError(f"expected {n} values for {name}, got {len(value)}")
        return list(value)
    return [value] * n


__all__ = ["LRScheduler", "StepLR", "MultiStepLR", "ExponentialLR", "LambdaLR", "LinearLR",
           "ConstantLR", "PolynomialLR", "CosineAnnealingLR", "ReduceLROnPlateau", "OneCycleLR",
           "CosineAnnealingWarmRestarts", "SequentialLR"]
