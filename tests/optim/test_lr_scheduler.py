"""optim.lr_scheduler against PyTorch 2.13: the learning rates after each epoch, and the
warning for stepping the scheduler before the optimizer.

EXPECTED lists `get_last_lr()` after construction and after each of five epochs, as PyTorch
2.13 printed them in the development-only torch venv (floats compared exactly: the chainable
formulas must round as PyTorch's do).
"""
import warnings

import pytest

import gradstep.engine as torch
from gradstep.engine.optim import lr_scheduler, scheduler_base

EXPECTED = [
    ("StepLR", dict(step_size=2, gamma=0.5),
     [[0.1], [0.1], [0.05], [0.05], [0.025], [0.025]]),
    ("MultiStepLR", dict(milestones=[1, 3, 3], gamma=0.1),
     [[0.1], [0.010000000000000002], [0.010000000000000002], [0.00010000000000000005],
      [0.00010000000000000005], [0.00010000000000000005]]),
    ("ExponentialLR", dict(gamma=0.9),
     [[0.1], [0.09000000000000001], [0.08100000000000002], [0.07290000000000002],
      [0.06561000000000002], [0.05904900000000002]]),
    ("LambdaLR", dict(lr_lambda=lambda e: 1 / (e + 1)),
     [[0.1], [0.05], [0.03333333333333333], [0.025], [0.020000000000000004],
      [0.016666666666666666]]),
]


@pytest.mark.parametrize("name,kwargs,expected", EXPECTED, ids=[n for n, _, _ in EXPECTED])
def test_schedules_match_pytorch(name, kwargs, expected):
    p = torch.zeros(1, requires_grad=True)
    opt = torch.optim.SGD([p], lr=0.1)
    sched = getattr(lr_scheduler, name)(opt, **kwargs)
    seen = [sched.get_last_lr()]
    for _ in range(5):
        p.grad = torch.ones(1)
        opt.step()
        sched.step()
        seen.append(sched.get_last_lr())
    assert seen == expected
    assert sched.last_epoch == 5 and opt.param_groups[0]["initial_lr"] == 0.1
    assert opt.param_groups[0]["lr"] == expected[-1][0]


def test_the_new_rate_is_what_the_next_step_uses():
    p = torch.tensor([1.0], requires_grad=True)
    opt = torch.optim.SGD([p], lr=1.0)
    sched = lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
    for _ in range(2):
        p.grad = torch.ones(1)
        opt.step()
        sched.step()
    assert p.tolist() == [1.0 - 1.0 - 0.5]


def test_stepping_the_scheduler_first_warns_as_pytorch():
    opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)
    sched = lr_scheduler.StepLR(opt, 1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sched.step()
        sched.step()
    assert [str(w.message) for w in caught] == [scheduler_base._ORDER_WARNING]
    assert str(caught[0].message).startswith("Detected call of `lr_scheduler.step()` before "
                                             "`optimizer.step()`.")


def test_per_group_lambdas_and_errors():
    a, b = torch.zeros(1, requires_grad=True), torch.zeros(1, requires_grad=True)
    opt = torch.optim.SGD([{"params": [a]}, {"params": [b], "lr": 1.0}], lr=0.1)
    sched = lr_scheduler.LambdaLR(opt, [lambda e: 1.0, lambda e: 0.5 ** e])
    opt.step()
    sched.step()
    assert sched.get_last_lr() == [0.1, 0.5]
    with pytest.raises(ValueError, match="^Expected 2 lr_lambdas, but got 1$"):
        lr_scheduler.LambdaLR(opt, [lambda e: 1.0])
