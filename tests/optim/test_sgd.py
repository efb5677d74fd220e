"""optim.SGD against PyTorch 2.13: updates with momentum, dampening, Nesterov, weight decay.

EXPECTED holds the parameters PyTorch 2.13 printed (`w.flatten().tolist() + b.tolist()`)
after six steps of the schedule in helpers.py, run in the development-only torch venv.
"""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from optim_schedule import check

import gradstep.engine as torch

EXPECTED = [
    ({"lr": 0.1},
     [0.5273999571800232, -1.3245000839233398, 1.9743000268936157, 0.07090000808238983,
      0.30000001192092896, -0.6708999872207642, 0.342600017786026, -0.08449000120162964]),
    ({"lr": 0.05, "momentum": 0.9},
     [0.5662103891372681, -1.3549059629440308, 1.9715094566345215, 0.16673459112644196,
      0.30082762241363525, -0.5415083765983582, 0.3887695372104645, -0.056281041353940964]),
    ({"lr": 0.05, "momentum": 0.9, "nesterov": True, "weight_decay": 0.01},
     [0.5671895742416382, -1.3676495552062988, 1.939638376235962, 0.14370857179164886,
      0.2974342703819275, -0.5359900593757629, 0.43776166439056396, -0.05210914835333824]),
    ({"lr": 0.05, "momentum": 0.5, "dampening": 0.3, "maximize": True},
     [0.46793344616889954, -1.2141273021697998, 2.0148048400878906, 0.07390093803405762,
      0.2777203321456909, -0.7496519088745117, 0.09862031042575836, -0.11560694128274918]),
]


@pytest.mark.parametrize("kwargs,expected", EXPECTED, ids=[str(k) for k, _ in EXPECTED])
def test_updates_match_pytorch(kwargs, expected):
    check("SGD", kwargs, expected)


def test_one_plain_step_is_p_minus_lr_grad():
    p = torch.tensor([1.0, -2.0], requires_grad=True)
    opt = torch.optim.SGD([p], lr=0.1)
    p.grad = torch.tensor([0.5, 1.0])
    opt.step()
    assert p.tolist() == pytest.approx([0.95, -2.1])
    assert p.is_leaf and p.requires_grad and p.grad_fn is None


def test_momentum_buffer_is_the_first_gradient_then_accumulates():
    p = torch.tensor([1.0], requires_grad=True)
    opt = torch.optim.SGD([p], lr=0.1, momentum=0.9)
    (p * p).sum().backward()
    opt.step()
    assert opt.state[p]["momentum_buffer"].tolist() == [2.0]
    opt.zero_grad()
    (p * p).sum().backward()          # grad 2 * 0.8 = 1.6; buf = 0.9 * 2 + 1.6
    opt.step()
    assert opt.state[p]["momentum_buffer"].tolist() == pytest.approx([3.4])
    assert p.tolist() == pytest.approx([0.8 - 0.34])


def test_parameters_without_grad_are_skipped():
    p = torch.tensor([1.0], requires_grad=True)
    q = torch.tensor([1.0], requires_grad=True)
    opt = torch.optim.SGD([p, q], lr=0.1, momentum=0.9)
    p.grad = torch.tensor([1.0])
    opt.step()
    assert q.tolist() == [1.0] and q not in opt.state


def test_default_lr_and_repr():
    opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)])
    assert opt.param_groups[0]["lr"] == 1e-3
    assert list(opt.param_groups[0]) == ["params", "lr", "momentum", "dampening",
                                         "weight_decay", "nesterov", "maximize", "foreach",
                                         "differentiable", "fused"]
    assert repr(torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)) == (
        "SGD (\n"
        "Parameter Group 0\n"
        "    dampening: 0\n"
        "    differentiable: False\n"
        "    foreach: None\n"
        "    fused: None\n"
        "    lr: 0.1\n"
        "    maximize: False\n"
        "    momentum: 0\n"
        "    nesterov: False\n"
        "    weight_decay: 0\n"
        ")")


@pytest.mark.parametrize("kwargs,message", [
    ({"lr": -1}, "Invalid learning rate: -1"),
    ({"lr": 0.1, "momentum": -1}, "Invalid momentum value: -1"),
    ({"lr": 0.1, "weight_decay": -1}, "Invalid weight_decay value: -1"),
    ({"lr": 0.1, "nesterov": True}, "Nesterov momentum requires a momentum and zero dampening"),
    ({"lr": 0.1, "momentum": 0.9, "dampening": 0.1, "nesterov": True},
     "Nesterov momentum requires a momentum and zero dampening"),
])
def test_invalid_hyperparameters(kwargs, message):
    with pytest.raises(ValueError) as info:
        torch.optim.SGD([torch.zeros(1, requires_grad=True)], **kwargs)
    assert str(info.value) == message


def test_training_a_linear_model_reduces_the_loss():
    torch.manual_seed(0)
    x = torch.linspace(-1, 1, 20).reshape(20, 1)
    y = 3 * x + 0.5
    model = torch.nn.Linear(1, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.5)
    for _ in range(200):
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
    assert loss.item() < 1e-6
    assert model.weight.item() == pytest.approx(3.0, abs=1e-3)
    assert model.bias.item() == pytest.approx(0.5, abs=1e-3)


def test_update_rounds_once_up_to_fused_max_then_in_float32():
    """p - lr * g rounded once (PyTorch's fused kernel) for parameters of up to FUSED_MAX
    elements; larger ones take numpy's float32 arithmetic (two roundings), whose gradients
    already carry numpy's BLAS order (engine/optim/optimizer.py FUSED_MAX)."""
    import numpy as np
    from gradstep.engine.optim.optimizer import FUSED_MAX
    rng = np.random.default_rng(3)
    lr = np.float32(0.01)
    for n in (FUSED_MAX, FUSED_MAX + 1):
        w = rng.standard_normal(n).astype(np.float32)
        g = rng.standard_normal(n).astype(np.float32)
        p = torch.tensor(w, requires_grad=True)
        p.grad = torch.tensor(g)
        torch.optim.SGD([p], lr=0.01).step()
        once = (w.astype(np.float64) - np.float64(lr) * g.astype(np.float64)).astype(np.float32)
        twice = w - lr * g
        assert (once != twice).any()        # the data tells the two roundings apart
        expected = once if n <= FUSED_MAX else twice
        assert np.array_equal(p.detach().numpy(), expected)
