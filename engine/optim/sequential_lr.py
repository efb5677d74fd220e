"""`optim.lr_scheduler.SequentialLR`: one scheduler after another, switching at milestones."""
from __future__ import annotations

from bisect import bisect_right

from .reduce_lr_on_plateau import ReduceLROnPlateau
from .scheduler_base import LRScheduler


class SequentialLR(LRScheduler):
    """Hand the schedule to each scheduler in turn, switching at the milestone epochs (the
    next one starts from its epoch 0 there).

    Example:
        >>> import gradstep.engine as torch
        >>> opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
        >>> from gradstep.engine.optim.lr_scheduler import ExponentialLR, LinearLR
        >>> warm = LinearLR(opt, start_factor=0.5, total_iters=2)
        >>> sched = SequentialLR(opt, [warm, ExponentialLR(opt, gamma=0.5)], milestones=[2])
        >>> [(opt.step(), sched.step(), sched.get_last_lr()[0])[2] for _ in range(4)]
        [0.75, 1.0, 0.5, 0.25]
    """

    def __init__(self, optimizer, schedulers, milestones, last_epoch: int = -1) -> None:
        name = type(self).__name__
        if len(schedulers) < 1:
            raise ValueError(f"{name} expects at least one scheduler, but got no scheduler.")
        for i, scheduler in enumerate(schedulers):
            if not isinstance(scheduler, LRScheduler):
                raise TypeError(f"{name} at index {i} should have `optimizer` as its "
                                "attribute.")
            if isinstance(scheduler, ReduceLROnPlateau):
                raise ValueError(f"{name} does not support `ReduceLROnPlateau` scheduler as it "
                                 "requires additional kwargs to be specified when calling "
                                 f"`step`, but got one at index {i} in the given schedulers "
                                 "sequence.")
            if optimizer != scheduler.optimizer:
                raise ValueError(f"{name} expects all schedulers to belong to the same "
                                 f"optimizer, but got scheduler {type(scheduler).__name__} at "
                                 f"index {i} has {scheduler.optimizer}, which is different "
                                 f"from {type(optimizer).__name__}.")
        if len(milestones) != len(schedulers) - 1:
            raise ValueError("Sequential Schedulers expects number of schedulers provided to be "
                             "one more than the number of milestone points, but got number of "
                             f"schedulers {len(schedulers)} and the number of milestones to be "
                             f"equal to {len(milestones)}")
        self._schedulers, self._milestones = schedulers, milestones
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer
        # the schedulers' constructors each took a step: start over from the initial rates
        for group in optimizer.param_groups:
            group["lr"] = group["initial_lr"]
        _undo_initial_steps(self)
        first = schedulers[bisect_right(milestones, 0)]
        first._initial_step()
        self._last_lr = first.get_last_lr()

    def step(self) -> None:
        self.last_epoch += 1
        idx = bisect_right(self._milestones, self.last_epoch)
        scheduler = self._schedulers[idx]
        if idx > 0 and self._milestones[idx - 1] == self.last_epoch:
            scheduler._update_lr(0)
        else:
            scheduler.step()
        self._last_lr = scheduler.get_last_lr()

    def state_dict(self) -> dict:
        state = {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "_schedulers")}
        state["_schedulers"] = [s.state_dict() for s in self._schedulers]
        return state

    def load_state_dict(self, state_dict: dict) -> None:
        inner = state_dict["_schedulers"]
        self.__dict__.update({k: v for k, v in state_dict.items() if k != "_schedulers"})
        for scheduler, state in zip(self._schedulers, inner):
            scheduler.load_state_dict(state)


def _undo_initial_steps(sequence: SequentialLR) -> None:
    """Take back the epoch each scheduler's constructor counted, through nested sequences."""
    for scheduler in sequence._schedulers:
        if isinstance(scheduler, SequentialLR):
            _undo_initial_steps(scheduler)
        else:
            scheduler.last_epoch -= 1
