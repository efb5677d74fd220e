"""optim.Adadelta, Adamax, NAdam and RAdam against PyTorch 2.13: updates, state and errors.

EXPECTED holds the parameters PyTorch 2.13 printed after six steps of the fixed gradient
schedule in optim_schedule.py, run in the development-only torch venv.
"""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from optim_schedule import check

import gradstep.engine as torch

EXPECTED = [
    ('Adadelta', {},
     [0.5012972950935364, -1.2532232999801636, 1.9964534044265747, 0.09829753637313843,
      0.3004015386104584, -0.6971043348312378, 0.2032429277896881, -0.09752074629068375]),
    ('Adadelta', {'lr': 0.5, 'rho': 0.8, 'eps': 0.0001, 'weight_decay': 0.1},
     [0.49978625774383545, -1.2480722665786743, 1.969506025314331, 0.0921822264790535,
      0.29882290959358215, -0.6850308179855347, 0.2109101116657257, -0.08878116309642792]),
    ('Adamax', {},
     [0.5029157996177673, -1.2501964569091797, 1.9979214668273926, 0.10255716741085052,
      0.3012571632862091, -0.6954836249351501, 0.20317527651786804, -0.09527765214443207]),
    ('Adamax', {'lr': 0.1, 'betas': (0.8, 0.95), 'weight_decay': 0.05, 'maximize': True},
     [0.35719019174575806, -1.1892914772033691, 2.0212059020996094, -0.012111097574234009,
      0.2351626604795456, -0.899462103843689, 0.05139228701591492, -0.2946740686893463]),
    ('NAdam', {},
     [0.5014082789421082, -1.2509222030639648, 1.9981780052185059, 0.10022085160017014,
      0.30094292759895325, -0.6970885396003723, 0.20230601727962494, -0.09792684763669968]),
    ('NAdam', {'lr': 0.05, 'momentum_decay': 0.01, 'weight_decay': 0.1},
     [0.5155746936798096, -1.2266343832015991, 1.877091884613037, 0.10198774933815002,
      0.31524115800857544, -0.6130666136741638, 0.25383463501930237, -0.04370717331767082]),
    ('NAdam', {'lr': 0.05, 'weight_decay': 0.1, 'decoupled_weight_decay': True},
     [0.5195243954658508, -1.236258864402771, 1.8960628509521484, 0.1016455665230751,
      0.31410789489746094, -0.6085752248764038, 0.2508349120616913, -0.04668962210416794]),
    ('RAdam', {},
     [0.5009663701057434, -1.2503788471221924, 1.9998055696487427, 0.10121186077594757,
      0.30025848746299744, -0.6986057758331299, 0.20202010869979858, -0.09952542930841446]),
    ('RAdam', {'lr': 0.1, 'betas': (0.5, 0.6), 'eps': 0.001},
     [0.5522522330284119, -1.3119474649429321, 1.9796299934387207, 0.14154161512851715,
      0.3238104581832886, -0.6100209355354309, 0.357553631067276, -0.07242031395435333]),
    ('RAdam', {'lr': 0.05, 'betas': (0.8, 0.9), 'weight_decay': 0.1,
               'decoupled_weight_decay': True},
     [0.5265563726425171, -1.2370526790618896, 1.9305198192596436, 0.14726513624191284,
      0.3029994070529938, -0.6146994233131409, 0.2832510769367218, -0.07560660690069199]),
]


@pytest.mark.parametrize("name,kwargs,expected", EXPECTED,
                         ids=[f"{n}-{k}" for n, k, _ in EXPECTED])
def test_updates_match_pytorch(name, kwargs, expected):
    check(name, kwargs, expected)


@pytest.mark.parametrize("name,keys", [
    ("Adadelta", ["step", "square_avg", "acc_delta"]),
    ("Adamax", ["step", "exp_avg", "exp_inf"]),
    ("NAdam", ["step", "mu_product", "exp_avg", "exp_avg_sq"]),
    ("RAdam", ["step", "exp_avg", "exp_avg_sq"]),
])
def test_state_keys_in_pytorch_order(name, keys):
    p = torch.tensor([1.0, -2.0], requires_grad=True)
    opt = getattr(torch.optim, name)([p])
    assert opt.state_dict()["state"] == {}       # created lazily, on the first step
    p.grad = torch.tensor([0.5, 1.0])
    opt.step()
    assert list(opt.state[p]) == keys
    assert repr(opt.state[p]["step"]) == "tensor(1.)"


def test_nadam_mu_product_is_a_float32_running_product():
    p = torch.tensor([1.0], requires_grad=True)
    opt = torch.optim.NAdam([p], momentum_decay=0.004)
    for _ in range(2):
        p.grad = torch.tensor([1.0])
        opt.step()
    # PyTorch 2.13 printed tensor(0.2026) after two steps (mu_1 * mu_2, rounded to float32)
    assert repr(opt.state[p]["mu_product"]) == "tensor(0.2026)"


def test_group_keys_follow_pytorch():
    p = torch.zeros(1, requires_grad=True)
    assert list(torch.optim.Adadelta([p]).param_groups[0]) == [
        "params", "lr", "rho", "eps", "weight_decay", "maximize", "capturable", "foreach",
        "differentiable"]
    last_two = list(torch.optim.RAdam([p]).param_groups[0])[-2:]
    assert last_two == ["decoupled_weight_decay", "differentiable"]


@pytest.mark.parametrize("name,kwargs,message", [
    ("Adadelta", {"rho": 1.5}, "Invalid rho value: 1.5"),
    ("Adadelta", {"lr": -1}, "Invalid learning rate: -1"),
    ("Adamax", {"betas": (0.9, 1.0)}, "Invalid beta parameter at index 1: 1.0"),
    ("NAdam", {"momentum_decay": -1}, "Invalid momentum_decay value: -1"),
    ("RAdam", {"eps": -1}, "Invalid epsilon value: -1"),
    ("RAdam", {"weight_decay": -0.1}, "Invalid weight_decay value: -0.1"),
])
def test_invalid_hyperparameters(name, kwargs, message):
    with pytest.raises(ValueError) as info:
        getattr(torch.optim, name)([torch.zeros(1, requires_grad=True)], **kwargs)
    assert str(info.value) == message
