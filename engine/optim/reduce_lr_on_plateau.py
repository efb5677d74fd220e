"""`optim.lr_scheduler.ReduceLROnPlateau`: lower the rate when a metric stops improving."""
from __future__ import annotations

import math

from .. import messages
from .optimizer import Optimizer
from .scheduler_base import _EPOCH_WARNING, LRScheduler


class ReduceLROnPlateau(LRScheduler):
    """Multiply the rate by `factor` once the metric passed to `step(metric)` has not improved
    for more than `patience` calls (then wait `cooldown` calls before counting again)."""

    def __init__(self, optimizer, mode: str = "min", factor: float = 0.1, patience: int = 10,
                 threshold: float = 1e-4, threshold_mode: str = "rel", cooldown: int = 0,
                 min_lr=0, eps: float = 1e-8):
        if factor >= 1.0:
            raise ValueError("Factor should be < 1.0.")
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        n = len(optimizer.param_groups)
        if isinstance(min_lr, (list, tuple)) and len(min_lr) != n:
            raise ValueError(f"expected {n} min_lrs, got {len(min_lr)}")
        if mode not in ("min", "max"):
            raise ValueError("mode " + mode + " is unknown!")
        if threshold_mode not in ("rel", "abs"):
            raise ValueError("threshold mode " + threshold_mode + " is unknown!")
        self.optimizer, self.factor, self.patience = optimizer, factor, patience
        self.min_lrs = list(min_lr) if isinstance(min_lr, (list, tuple)) else [min_lr] * n
        self.mode, self.threshold, self.threshold_mode = mode, threshold, threshold_mode
        self.cooldown, self.eps, self.last_epoch = cooldown, eps, 0
        self.mode_worse = math.inf if mode == "min" else -math.inf
        self.best, self.cooldown_counter, self.num_bad_epochs = self.mode_worse, 0, 0
        self._last_lr = self._current()

    def step(self, metrics, epoch=None) -> None:
        current = float(metrics)
        if epoch is not None:
            messages.warn(_EPOCH_WARNING)
        self.last_epoch = self.last_epoch + 1 if epoch is None else epoch
        if self._is_better(current):
            self.best, self.num_bad_epochs = current, 0
        else:
            self.num_bad_epochs += 1
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0          # bad epochs in cooldown do not count
        if self.num_bad_epochs > self.patience:
            for group, low in zip(self.optimizer.param_groups, self.min_lrs):
                old = float(group["lr"])
                new = max(old * self.factor, low)
                if old - new > self.eps:
                    group["lr"] = new
            self.cooldown_counter, self.num_bad_epochs = self.cooldown, 0
        self._last_lr = self._current()

    def _is_better(self, a: float) -> bool:
        if self.mode == "min":
            return a < (self.best * (1.0 - self.threshold) if self.threshold_mode == "rel"
                        else self.best - self.threshold)
        return a > (self.best * (self.threshold + 1.0) if self.threshold_mode == "rel"
                    else self.best + self.threshold)
