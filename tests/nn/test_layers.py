"""Layers, containers, activations and init: values, recorded nodes and reprs as PyTorch's.

Node chains and numbers were printed by PyTorch 2.13 for the same code in the
development-only torch venv and pasted here as constants.
"""
import math
import warnings

import numpy as np
import pytest

import gradstep.engine as torch
import gradstep.engine.nn.functional as F
from gradstep.engine import nn
from gradstep.engine.nn import init


def chain(t) -> str:
    """The grad_fn tree as nested names, e.g. "AddmmBackward0[AccumulateGrad[], None]"."""
    def walk(fn, depth):
        if fn is None or depth > 3:
            return "None"
        return f"{type(fn).__name__}[" + ", ".join(walk(f, depth + 1)
                                                   for f, _ in fn.next_functions) + "]"
    return walk(t.grad_fn, 0)


def fixed_linear() -> nn.Linear:
    fc = nn.Linear(3, 2)
    with torch.no_grad():
        fc.weight.copy_(torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]))
        fc.bias.copy_(torch.tensor([0.1, -0.2]))
    return fc


def test_linear_values_and_gradients_match_pytorch():
    fc = fixed_linear()
    x = torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, 0.0]], requires_grad=True)
    y = fc(x)
    np.testing.assert_allclose(y.detach().numpy(),
                               [[4.599999904632568, -0.44999998807907104],
                                [-0.8999999761581421, -1.5750000476837158]], rtol=1e-7)
    (y * torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
    assert fc.weight.grad.tolist() == [[-2.0, 3.5, 3.0], [-2.0, 6.0, 6.0]]
    assert fc.bias.grad.tolist() == [4.0, 6.0]
    assert x.grad.tolist() == [[3.5, -0.5, 0.5], [7.5, -2.0, 3.0]]
    assert fc(torch.tensor([1.0, 2.0, 3.0])).tolist() == pytest.approx([4.6, -0.45])


W = torch.ones(2, 3, requires_grad=True)
B = torch.ones(2, requires_grad=True)


# PyTorch 2.13's graphs for F.linear by input rank, with and without bias
@pytest.mark.parametrize("shape,with_bias,expected", [
    ((4, 3), True, "AddmmBackward0[AccumulateGrad[], None, TBackward0[AccumulateGrad[]]]"),
    ((3,), True,
     "ViewBackward0[AddmmBackward0[AccumulateGrad[], None, TBackward0[AccumulateGrad[]]]]"),
    ((5, 4, 3), True,
     "ViewBackward0[AddmmBackward0[AccumulateGrad[], None, TBackward0[AccumulateGrad[]]]]"),
    ((4, 3), False, "MmBackward0[None, TBackward0[AccumulateGrad[]]]"),
    ((3,), False, "SqueezeBackward4[MmBackward0[None, TBackward0[AccumulateGrad[]]]]"),
    ((5, 4, 3), False, "UnsafeViewBackward0[MmBackward0[None, TBackward0[AccumulateGrad[]]]]"),
])
def test_linear_records_pytorchs_nodes(shape, with_bias, expected):
    y = F.linear(torch.ones(*shape), W, B if with_bias else None)
    assert chain(y) == expected
    assert y.shape == shape[:-1] + (2,)


def test_linear_input_that_requires_grad_is_viewed_to_2d():
    x = torch.ones(5, 4, 3, requires_grad=True)
    assert chain(F.linear(x, W, B)) == ("ViewBackward0[AddmmBackward0[AccumulateGrad[], "
                                        "ViewBackward0[AccumulateGrad[]], "
                                        "TBackward0[AccumulateGrad[]]]]")


def test_addmm_saves_what_pytorch_saves():
    fn = F.linear(torch.ones(4, 3), W, B).grad_fn
    assert (fn._saved_alpha, fn._saved_beta) == (1, 1)
    assert fn._saved_mat1_sym_sizes == (4, 3) and fn._saved_mat2_sym_sizes == (3, 2)


@pytest.mark.parametrize("call,message", [
    (lambda: nn.Linear(3, 2)(torch.randn(4, 5)),
     "mat1 and mat2 shapes cannot be multiplied (4x5 and 3x2)"),
    (lambda: nn.Linear(3, 2)(torch.randn(5)),
     "mat1 and mat2 shapes cannot be multiplied (1x5 and 3x2)"),
    (lambda: F.linear(torch.randn(4, 3), torch.randn(2, 3), torch.randn(3)),
     "The expanded size of the tensor (2) must match the existing size (3) at non-singleton "
     "dimension 1.  Target sizes: [4, 2].  Tensor sizes: [3]"),
])
def test_linear_shape_errors(call, message):
    with pytest.raises(RuntimeError) as info:
        call()
    assert str(info.value) == message


def test_default_init_uses_kaiming_uniform_bounds():
    torch.manual_seed(0)
    fc = nn.Linear(16, 64)
    bound = 1 / math.sqrt(16)
    w, b = fc.weight.detach().numpy(), fc.bias.detach().numpy()
    assert np.abs(w).max() <= bound and np.abs(b).max() <= bound
    assert np.abs(w).max() > 0.9 * bound        # spread over the range, not all zero
    assert fc.weight.dtype == torch.float32
    assert nn.Linear(2, 2, dtype=torch.float64).weight.dtype == torch.float64


@pytest.mark.parametrize("module,text", [
    (nn.ReLU(), "ReLU()"), (nn.ReLU(inplace=True), "ReLU(inplace=True)"),
    (nn.Tanh(), "Tanh()"), (nn.Sigmoid(), "Sigmoid()"), (nn.Softmax(dim=1), "Softmax(dim=1)"),
    (nn.Softmax(), "Softmax(dim=None)"), (nn.LogSoftmax(dim=-1), "LogSoftmax(dim=-1)"),
    (nn.LeakyReLU(), "LeakyReLU(negative_slope=0.01)"), (nn.Identity(), "Identity()"),
    (nn.Flatten(), "Flatten(start_dim=1, end_dim=-1)"), (nn.MSELoss(), "MSELoss()"),
    (nn.BCEWithLogitsLoss(), "BCEWithLogitsLoss()"), (nn.NLLLoss(), "NLLLoss()"),
])
def test_module_reprs(module, text):
    assert repr(module) == text


@pytest.mark.parametrize("module,node", [
    (nn.ReLU(), "ReluBackward0"), (nn.Tanh(), "TanhBackward0"),
    (nn.Sigmoid(), "SigmoidBackward0"), (nn.Softmax(dim=1), "SoftmaxBackward0"),
    (nn.LogSoftmax(dim=1), "LogSoftmaxBackward0"), (nn.LeakyReLU(0.2), "LeakyReluBackward0"),
])
def test_activations_record_their_nodes(module, node):
    x = torch.tensor([[-1.0, 0.5, 2.0]], requires_grad=True)
    assert type(module(x).grad_fn).__name__ == node


def test_leaky_relu_values_and_saved_slope():
    x = torch.tensor([-2.0, 3.0], requires_grad=True)
    y = F.leaky_relu(x, 0.1)
    assert y.tolist() == pytest.approx([-0.2, 3.0])
    assert y.grad_fn._saved_negative_slope == 0.1
    y.sum().backward()
    assert x.grad.tolist() == pytest.approx([0.1, 1.0])


def test_relu_inplace_on_a_clone():
    x = torch.tensor([-1.0, 2.0], requires_grad=True)
    y = F.relu(x.clone(), inplace=True)
    assert chain(y) == "ReluBackward0[CloneBackward0[AccumulateGrad[]]]"


def test_softmax_without_dim_warns_and_guesses_as_pytorch():
    x = torch.tensor([[1.0, 2.0], [3.0, 5.0]])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        y = F.softmax(x)
        z = nn.LogSoftmax()(torch.tensor([1.0, 2.0]))
    assert [str(w.message) for w in caught] == [
        "Implicit dimension choice for softmax has been deprecated. Change the call to include "
        "dim=X as an argument.",
        "Implicit dimension choice for log_softmax has been deprecated. Change the call to "
        "include dim=X as an argument."]
    np.testing.assert_allclose(y.sum(1).numpy(), [1.0, 1.0], rtol=1e-6)    # dim 1 for 2-d
    np.testing.assert_allclose(z.exp().sum().item(), 1.0, rtol=1e-6)      # dim 0 for 1-d


def test_sequential_runs_in_order_and_indexes():
    seq = nn.Sequential(nn.Linear(3, 2), nn.Tanh())
    x = torch.ones(4, 3)
    assert seq(x).tolist() == seq[1](seq[0](x)).tolist()
    assert len(seq) == 2 and isinstance(seq[-1], nn.Tanh)
    assert repr(seq[0:1]) == ("Sequential(\n  (0): Linear(in_features=3, out_features=2, "
                              "bias=True)\n)")
    seq.append(nn.ReLU())
    assert [n for n, _ in seq.named_children()] == ["0", "1", "2"]
    with pytest.raises(IndexError, match="index 3 is out of range"):
        seq[3]


def test_module_list_folds_repeated_children_in_its_repr():
    layers = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)] + [nn.ReLU(), nn.Linear(1, 1)])
    assert repr(layers) == (
        "ModuleList(\n"
        "  (0-2): 3 x Linear(in_features=2, out_features=2, bias=True)\n"
        "  (3): ReLU()\n"
        "  (4): Linear(in_features=1, out_features=1, bias=True)\n"
        ")")
    assert len(list(layers.parameters())) == 8
    assert [n for n, _ in layers.named_parameters()][:2] == ["0.weight", "0.bias"]


def test_flatten_and_identity():
    assert nn.Flatten()(torch.ones(2, 3, 4)).shape == (2, 12)
    x = torch.ones(2)
    assert nn.Identity()(x) is x


def test_init_functions_fill_in_place_under_no_grad():
    p = nn.Parameter(torch.empty(3, 5))
    assert init.ones_(p) is p and p.tolist() == [[1.0] * 5] * 3
    assert p.requires_grad and p.grad_fn is None
    init.zeros_(p)
    assert p.sum().item() == 0.0
    init.constant_(p, 0.25)
    assert set(p.detach().numpy().ravel()) == {0.25}
    init.xavier_uniform_(p)
    assert np.abs(p.detach().numpy()).max() <= math.sqrt(6 / 8)
    init.kaiming_uniform_(p, nonlinearity="relu")
    assert np.abs(p.detach().numpy()).max() <= math.sqrt(2) * math.sqrt(3 / 5)
    init.normal_(p, mean=10.0, std=0.01)
    assert abs(p.mean().item() - 10.0) < 0.1
    init.uniform_(p, -1.0, -0.5)
    assert p.max().item() <= -0.5 and p.min().item() >= -1.0


def test_calculate_gain_and_fan_errors():
    # PyTorch 2.13's values
    assert init.calculate_gain("relu") == 1.4142135623730951
    assert init.calculate_gain("tanh") == 1.6666666666666667
    assert init.calculate_gain("leaky_relu") == 1.4141428569978354
    assert init.calculate_gain("leaky_relu", 0.2) == 1.3867504905630728
    with pytest.raises(ValueError) as info:
        init.xavier_uniform_(torch.empty(3))
    assert str(info.value) == ("Fan in and fan out can not be computed for tensor with fewer "
                               "than 2 dimensions")


# PyTorch 2.13's values and gradients (of the sum) at X_ACT, printed in the torch venv
X_ACT = [-2.0, -0.5, 0.0, 0.5, 3.0]
ACTIVATIONS = {
    "softplus": (F.softplus, "SoftplusBackward0",
                 [0.12692800164222717, 0.4740769863128662, 0.6931471824645996,
                  0.9740769863128662, 3.0485873222351074],
                 [0.11920291930437088, 0.3775406777858734, 0.5, 0.622459352016449,
                  0.9525741338729858]),
    "silu": (F.silu, "SiluBackward0",
             [-0.23840583860874176, -0.1887703388929367, 0.0, 0.3112296760082245,
              2.857722520828247],
             [-0.09078425168991089, 0.260038822889328, 0.5, 0.7399612069129944,
              1.0881041288375854]),
    "elu": (F.elu, "EluBackward0",
            [-0.8646647334098816, -0.39346933364868164, 0.0, 0.5, 3.0],
            [0.1353352814912796, 0.6065306663513184, 1.0, 1.0, 1.0]),
    "gelu": (F.gelu, "GeluBackward0",
             [-0.04550027847290039, -0.1542687714099884, 0.0, 0.3457312285900116,
              2.9959497451782227],
             [-0.08523187041282654, 0.1325049102306366, 0.5, 0.867495059967041,
              1.0119456052780151]),
    "softplus_b2_t1": (lambda t: F.softplus(t, beta=2, threshold=1), "SoftplusBackward0",
                       [0.009074964560568333, 0.15663084387779236, 0.3465735912322998,
                        0.65663081407547, 3.0],
                       [0.01798621006309986, 0.2689414322376251, 0.5, 0.7310585975646973,
                        1.0]),
    "elu_a05": (lambda t: F.elu(t, alpha=0.5), "EluBackward0",
                [-0.4323323667049408, -0.19673466682434082, 0.0, 0.5, 3.0],
                [0.0676676407456398, 0.3032653331756592, 0.5, 1.0, 1.0]),
    "gelu_tanh": (lambda t: F.gelu(t, approximate="tanh"), "GeluBackward0",
                  [-0.04540228843688965, -0.1542859971523285, 0.0, 0.3457140028476715,
                   2.9963626861572266],
                  [-0.08609922230243683, 0.1326301097869873, 0.5, 0.8673698902130127,
                   1.0115842819213867]),
}


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
def test_more_activations_match_pytorch(name):
    fn, node, values, grads = ACTIVATIONS[name]
    x = torch.tensor(X_ACT, requires_grad=True)
    y = fn(x)
    assert type(y.grad_fn).__name__ == node
    (g,) = torch.autograd.grad(y.sum(), x)
    np.testing.assert_allclose(y.detach().numpy(), values, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(g.numpy(), grads, rtol=1e-6, atol=1e-7)


def test_more_activation_reprs():
    assert [repr(m) for m in (nn.Softplus(), nn.SiLU(), nn.ELU(), nn.GELU(), nn.GELU("tanh"),
                              nn.Softplus(beta=2, threshold=1), nn.ELU(alpha=0.5),
                              nn.Dropout(0.2), nn.Dropout(0.2, inplace=True))] == [
        "Softplus(beta=1.0, threshold=20.0)", "SiLU()", "ELU(alpha=1.0)",
        "GELU(approximate='none')", "GELU(approximate='tanh')", "Softplus(beta=2, threshold=1)",
        "ELU(alpha=0.5)", "Dropout(p=0.2, inplace=False)", "Dropout(p=0.2, inplace=True)"]


def test_dropout_scales_kept_values_and_is_the_identity_in_eval():
    torch.manual_seed(0)
    x = torch.ones(1000, requires_grad=True)
    drop = nn.Dropout(0.25)
    y = drop(x)
    assert type(y.grad_fn).__name__ == "MulBackward0"
    kept = y.detach().numpy()
    assert np.all((kept == 0) | np.isclose(kept, 1 / 0.75))
    assert 0.15 < (kept == 0).mean() < 0.35
    assert drop.eval()(x) is x
    assert F.dropout(x, 0.0) is x and F.dropout(x, 0.5, training=False) is x
    assert F.dropout(x, 1.0).sum().item() == 0.0
    with pytest.raises(ValueError) as info:
        nn.Dropout(1.5)
    assert str(info.value) == "dropout probability has to be between 0 and 1, but got 1.5"
