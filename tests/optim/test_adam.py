"""optim.Adam and optim.AdamW against PyTorch 2.13 (amsgrad, weight decay, maximize, betas).

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
    ("Adam", {},
     [0.5016554594039917, -1.2506484985351562, 1.9988856315612793, 0.10138147324323654,
      0.30051225423812866, -0.6972081661224365, 0.20179015398025513, -0.09708575904369354]),
    ("Adam", {"lr": 0.05, "weight_decay": 0.1, "amsgrad": True},
     [0.5562005043029785, -1.2167965173721313, 1.831834077835083, 0.16363213956356049,
      0.3136088252067566, -0.5409437417984009, 0.2840234935283661, 0.04623629152774811]),
    ("Adam", {"lr": 0.02, "betas": (0.5, 0.9), "eps": 0.001, "maximize": True},
     [0.48534873127937317, -1.2330079078674316, 2.0190629959106445, 0.09331472963094711,
      0.28938761353492737, -0.7394332885742188, 0.17666427791118622, -0.12798205018043518]),
    ("AdamW", {"lr": 0.05},
     [0.5810847878456116, -1.2787214517593384, 1.9384068250656128, 0.16860970854759216,
      0.32464081048965454, -0.5585684776306152, 0.2887282073497772, 0.04572824761271477]),
]


@pytest.mark.parametrize("name,kwargs,expected", EXPECTED,
                         ids=[f"{n}{k}" for n, k, _ in EXPECTED])
def test_updates_match_pytorch(name, kwargs, expected):
    check(name, kwargs, expected)


def test_state_after_one_step_prints_as_pytorchs():
    p = torch.tensor([1.0, -2.0], requires_grad=True)
    opt = torch.optim.Adam([p], amsgrad=True)
    p.grad = torch.tensor([0.5, 1.0])
    opt.step()
    st = opt.state[p]
    assert list(st) == ["step", "exp_avg", "exp_avg_sq", "max_exp_avg_sq"]
    # PyTorch 2.13: tensor(1.), tensor([0.0500, 0.1000]), tensor([0.0003, 0.0010])
    assert repr(st["step"]) == "tensor(1.)"
    assert repr(st["exp_avg"]) == "tensor([0.0500, 0.1000])"
    assert repr(st["exp_avg_sq"]) == "tensor([0.0003, 0.0010])"
    # the first Adam step moves every coordinate by lr against the sign of its gradient
    assert p.tolist() == pytest.approx([0.999, -2.001], abs=1e-6)


def test_defaults_and_group_keys():
    opt = torch.optim.Adam([torch.zeros(1, requires_grad=True)])
    g = opt.param_groups[0]
    assert list(g) == ["params", "lr", "betas", "eps", "weight_decay", "amsgrad", "maximize",
                       "foreach", "capturable", "differentiable", "fused",
                       "decoupled_weight_decay"]
    assert (g["lr"], g["betas"], g["eps"], g["weight_decay"]) == (0.001, (0.9, 0.999), 1e-08, 0)
    w = torch.optim.AdamW([torch.zeros(1, requires_grad=True)]).param_groups[0]
    assert (w["weight_decay"], w["decoupled_weight_decay"]) == (0.01, True)


@pytest.mark.parametrize("kwargs,message", [
    ({"lr": -1}, "Invalid learning rate: -1"),
    ({"eps": -1}, "Invalid epsilon value: -1"),
    ({"betas": (1.0, 0.9)}, "Invalid beta parameter at index 0: 1.0"),
    ({"betas": (0.9, 1.5)}, "Invalid beta parameter at index 1: 1.5"),
    ({"weight_decay": -1}, "Invalid weight_decay value: -1"),
])
def test_invalid_hyperparameters(kwargs, message):
    with pytest.raises(ValueError) as info:
        torch.optim.Adam([torch.zeros(1, requires_grad=True)], **kwargs)
    assert str(info.value) == message


def test_a_tensor_learning_rate_is_accepted():
    p = torch.tensor([1.0], requires_grad=True)
    opt = torch.optim.Adam([p], lr=torch.tensor(0.5))
    p.grad = torch.tensor([3.0])
    opt.step()
    assert p.item() == pytest.approx(0.5, abs=1e-6)
