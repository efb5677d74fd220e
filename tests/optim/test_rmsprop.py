"""optim.RMSprop against PyTorch 2.13 (plain, and centered with momentum and weight decay).

EXPECTED holds the parameters PyTorch 2.13 printed after six steps of the schedule in
helpers.py, run in the development-only torch venv.
"""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from optim_schedule import check

import gradstep.engine as torch

EXPECTED = [
    ({},
     [0.5554057955741882, -1.2719355821609497, 1.9254865646362305, 0.11439738422632217,
      0.33942094445228577, -0.5694388151168823, 0.2866334617137909, -0.016899365931749344]),
    ({"lr": 0.01, "momentum": 0.9, "centered": True, "weight_decay": 0.1},
     [0.6766759157180786, -1.052348017692566, 1.3873125314712524, 0.31848376989364624,
      0.4496827721595764, 0.03254234418272972, 0.48748722672462463, 0.30811479687690735]),
]


@pytest.mark.parametrize("kwargs,expected", EXPECTED, ids=[str(k) for k, _ in EXPECTED])
def test_updates_match_pytorch(kwargs, expected):
    check("RMSprop", kwargs, expected)


def test_state_keys_and_group_order():
    p = torch.tensor([1.0, -2.0], requires_grad=True)
    opt = torch.optim.RMSprop([p], momentum=0.5, centered=True)
    p.grad = torch.tensor([0.5, 1.0])
    opt.step()
    assert list(opt.state[p]) == ["step", "square_avg", "momentum_buffer", "grad_avg"]
    # PyTorch 2.13: square_avg tensor([0.0025, 0.0100]), grad_avg tensor([0.0050, 0.0100])
    assert repr(opt.state[p]["square_avg"]) == "tensor([0.0025, 0.0100])"
    assert repr(opt.state[p]["grad_avg"]) == "tensor([0.0050, 0.0100])"
    assert list(opt.param_groups[0]) == ["params", "lr", "momentum", "alpha", "eps", "centered",
                                         "weight_decay", "capturable", "foreach", "maximize",
                                         "differentiable"]


@pytest.mark.parametrize("kwargs,message", [
    ({"lr": -1}, "Invalid learning rate: -1"), ({"eps": -1}, "Invalid epsilon value: -1"),
    ({"momentum": -1}, "Invalid momentum value: -1"),
    ({"weight_decay": -1}, "Invalid weight_decay value: -1"),
    ({"alpha": -1}, "Invalid alpha value: -1"),
])
def test_invalid_hyperparameters(kwargs, message):
    with pytest.raises(ValueError) as info:
        torch.optim.RMSprop([torch.zeros(1, requires_grad=True)], **kwargs)
    assert str(info.value) == message
