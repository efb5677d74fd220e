"""Losses in nn.functional and nn: values, gradients and node names as PyTorch 2.13 gives them.

The expected numbers were printed by real PyTorch 2.13 (CPU, float32) for the same inputs
(`loss.tolist()`, `type(loss.grad_fn).__name__`, `x.grad.tolist()` after backward) in the
development-only torch venv, then pasted here; the suite itself never imports torch.
"""
import warnings

import numpy as np
import pytest

import gradstep.engine as torch
import gradstep.engine.nn.functional as F
from gradstep.engine import nn

X0 = [[0.2, -1.3, 0.7], [1.5, 0.1, -0.4], [-0.6, 0.9, 2.2], [0.05, -0.25, 0.5]]
T = torch.tensor([[0.0, 1.0, 0.5], [1.0, 0.0, 0.25], [0.3, 0.3, 1.0], [0.9, 0.1, 0.0]])
CLS = torch.tensor([2, 0, 1, 2])
W3 = torch.tensor([0.5, 2.0, 1.0])
PW = torch.tensor([1.5, 0.5, 3.0])

LOSSES = {
    "mse_mean": lambda x: F.mse_loss(x, T),
    "mse_sum": lambda x: F.mse_loss(x, T, reduction="sum"),
    "mse_none": lambda x: F.mse_loss(x, T, reduction="none"),
    "bcel_mean": lambda x: F.binary_cross_entropy_with_logits(x, T),
    "bcel_none": lambda x: F.binary_cross_entropy_with_logits(x, T, reduction="none"),
    "bcel_w_pw": lambda x: F.binary_cross_entropy_with_logits(x, T, weight=W3, pos_weight=PW),
    "bce_mean": lambda x: F.binary_cross_entropy(torch.sigmoid(x), T),
    "bce_w_sum": lambda x: F.binary_cross_entropy(torch.sigmoid(x), T, weight=W3,
                                                  reduction="sum"),
    "ce_mean": lambda x: F.cross_entropy(x, CLS),
    "ce_none": lambda x: F.cross_entropy(x, CLS, reduction="none"),
    "ce_w_ignore": lambda x: F.cross_entropy(x, CLS, weight=W3, ignore_index=0),
    "ce_probs": lambda x: F.cross_entropy(x, torch.softmax(T, 1)),
    "nll_sum": lambda x: F.nll_loss(F.log_softmax(x, 1), CLS, reduction="sum"),
    "ce_1d": lambda x: F.cross_entropy(x[1], CLS[1]),
}

# name: (loss value(s), grad_fn class name, d loss / d x) -- from PyTorch 2.13, see above
EXPECTED = {
    "mse_mean": (0.81312495470047, "MseLossBackward0",
                 [[0.03333333507180214, -0.38333332538604736, 0.03333333134651184],
                  [0.0833333358168602, 0.01666666753590107, -0.10833333432674408],
                  [-0.15000000596046448, 0.09999999403953552, 0.20000001788139343],
                  [-0.14166666567325592, -0.05833333358168602, 0.0833333358168602]]),
    "mse_sum": (9.757499694824219, "MseLossBackward0",
                [[0.4000000059604645, -4.599999904632568, 0.3999999761581421],
                 [1.0, 0.20000000298023224, -1.2999999523162842],
                 [-1.8000000715255737, 1.1999999284744263, 2.4000000953674316],
                 [-1.6999999284744263, -0.699999988079071, 1.0]]),
    "mse_none": ([[0.04000000283122063, 5.289999961853027, 0.03999999538064003],
                  [0.25, 0.010000000707805157, 0.42249995470046997],
                  [0.8100000619888306, 0.35999995470046997, 1.440000057220459],
                  [0.7224999666213989, 0.1224999949336052, 0.25]], "MseLossBackward0",
                 [[0.4000000059604645, -4.599999904632568, 0.3999999761581421],
                  [1.0, 0.20000000298023224, -1.2999999523162842],
                  [-1.8000000715255737, 1.1999999284744263, 2.4000000953674316],
                  [-1.6999999284744263, -0.699999988079071, 1.0]]),
    "bcel_mean": (0.7161133289337158, "BinaryCrossEntropyWithLogitsBackward0",
                  [[0.045819494873285294, -0.06548624485731125, 0.014015644788742065],
                   [-0.015202130191028118, 0.04374826326966286, 0.012609362602233887],
                   [0.004528641700744629, 0.03424578905105591, -0.008312538266181946],
                   [-0.03229188546538353, 0.02815195918083191, 0.051871612668037415]]),
    "bcel_none": ([[0.7981388568878174, 1.541008472442627, 0.753186047077179],
                   [0.20141328871250153, 0.7443966865539551, 0.6130152344703674],
                   [0.6174879670143127, 0.9711538553237915, 0.10508331656455994],
                   [0.6734596490859985, 0.6009393930435181, 0.9740769863128662]],
                  "BinaryCrossEntropyWithLogitsBackward0",
                  [[0.5498339533805847, -0.7858349680900574, 0.16818773746490479],
                   [-0.18242555856704712, 0.5249791741371155, 0.15131235122680664],
                   [0.05434370040893555, 0.4109494686126709, -0.09975045919418335],
                   [-0.38750261068344116, 0.3378235101699829, 0.622459352016449]]),
    "bcel_w_pw": (0.9106740951538086, "BinaryCrossEntropyWithLogitsBackward0",
                  [[0.022909747436642647, -0.06548624485731125, -0.013635377399623394],
                   [-0.01140159834176302, 0.08749652653932571, -0.01233595609664917],
                   [-0.0017710303654894233, 0.07571784406900406, -0.02493760921061039],
                   [-0.025286614894866943, 0.060988713055849075, 0.051871612668037415]]),
    "bce_mean": (0.716113269329071, "BinaryCrossEntropyBackward0",
                 [[0.04581949859857559, -0.06548625230789185, 0.01401564572006464],
                  [-0.015202130191028118, 0.04374826326966286, 0.012609362602233887],
                  [0.004528641700744629, 0.03424578905105591, -0.008312538266181946],
                  [-0.03229188174009323, 0.02815196104347706, 0.051871612668037415]]),
    "bce_w_sum": (11.305607795715332, "BinaryCrossEntropyBackward0",
                  [[0.27491697669029236, -1.5716700553894043, 0.16818773746490479],
                   [-0.09121277928352356, 1.0499582290649414, 0.15131233632564545],
                   [0.027171850204467773, 0.821898877620697, -0.09975045919418335],
                   [-0.19375130534172058, 0.6756470203399658, 0.622459352016449]]),
    "ce_mean": (0.8057651519775391, "NllLossBackward0",
                [[0.08705185353755951, 0.019423894584178925, -0.10647574067115784],
                 [-0.07093814015388489, 0.044156111776828766, 0.02678203582763672],
                 [0.011401811614632607, -0.19890062510967255, 0.1874988079071045],
                 [0.07554855942726135, 0.05596774443984032, -0.13151627779006958]]),
    "ce_none": ([0.55495685338974, 0.33372962474823, 1.5876885652542114, 0.7466853857040405],
                "NllLossBackward0",
                [[0.34820741415023804, 0.0776955783367157, -0.42590296268463135],
                 [-0.28375256061553955, 0.17662444710731506, 0.10712814331054688],
                 [0.045607246458530426, -0.7956025004386902, 0.749995231628418],
                 [0.3021942377090454, 0.22387097775936127, -0.5260651111602783]]),
    "ce_w_ignore": (1.1192548274993896, "NllLossBackward0",
                    [[0.08705185353755951, 0.019423894584178925, -0.10647574067115784],
                     [0.0, 0.0, 0.0],
                     [0.022803623229265213, -0.3978012502193451, 0.374997615814209],
                     [0.07554855942726135, 0.05596774443984032, -0.13151627779006958]]),
    "ce_probs": (1.3105744123458862, "DivBackward1",
                 [[0.040470920503139496, -0.10719620436429977, 0.06672528386116028],
                  [0.04321045055985451, -0.00582082848995924, -0.03738962113857269],
                  [-0.05088403820991516, -0.011186473071575165, 0.06207050383090973],
                  [-0.05915707349777222, -0.004559401422739029, 0.06371648609638214]]),
    "nll_sum": (3.2230606079101562, "NllLossBackward0",
                [[0.34820741415023804, 0.0776955783367157, -0.42590296268463135],
                 [-0.28375256061553955, 0.17662444710731506, 0.10712814331054688],
                 [0.045607246458530426, -0.7956025004386902, 0.749995231628418],
                 [0.3021942377090454, 0.22387097775936127, -0.5260651111602783]]),
    "ce_1d": (0.33372962474823, "NllLossBackward0",
              [[0.0, 0.0, 0.0], [-0.28375256061553955, 0.17662444710731506, 0.10712814331054688],
               [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]),
}


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_loss_value_node_and_gradient_match_pytorch(name):
    value, node, grad = EXPECTED[name]
    x = torch.tensor(X0, requires_grad=True)
    loss = LOSSES[name](x)
    assert loss.dtype == torch.float32
    assert type(loss.grad_fn).__name__ == node
    (loss.sum() if loss.dim() else loss).backward()
    np.testing.assert_allclose(np.array(loss.tolist()), value, rtol=2e-6, atol=1e-7)
    np.testing.assert_allclose(x.grad.numpy(), grad, rtol=2e-6, atol=1e-7)


def test_saved_attributes_use_pytorchs_names_and_codes():
    x = torch.tensor(X0, requires_grad=True)
    mse = F.mse_loss(x, T, reduction="sum").grad_fn
    assert mse._saved_reduction == 2 and mse._saved_self is x
    nll = F.nll_loss(x, CLS).grad_fn
    # PyTorch 2.13 reads ignore_index=-100 back as an unsigned 64-bit number
    assert (nll._saved_reduction, nll._saved_ignore_index) == (1, 18446744073709551516)
    assert nll._saved_weight is None and nll._saved_total_weight.item() == 4.0
    bce = F.binary_cross_entropy_with_logits(x, T).grad_fn
    assert bce._saved_pos_weight is None and bce._saved_weight is None


def test_next_functions_cover_the_differentiable_inputs_only():
    x = torch.tensor(X0, requires_grad=True)
    t = T.clone().requires_grad_()
    loss = F.binary_cross_entropy_with_logits(x, t, weight=W3)
    assert [type(f).__name__ for f, _ in loss.grad_fn.next_functions] == [
        "AccumulateGrad", "AccumulateGrad"]
    loss = F.binary_cross_entropy(torch.sigmoid(x), T)
    assert [type(f).__name__ if f else None for f, _ in loss.grad_fn.next_functions] == [
        "SigmoidBackward0", None]
    loss = F.cross_entropy(x, CLS)
    assert len(loss.grad_fn.next_functions) == 1
    assert type(loss.grad_fn.next_functions[0][0]).__name__ == "LogSoftmaxBackward0"


def test_target_gradients():
    # PyTorch 2.13: grads of MSE/BCE/BCE-with-logits with respect to a target that requires grad
    x = torch.tensor([0.25, 0.5, 0.75])
    t = torch.tensor([0.0, 1.0, 0.5], requires_grad=True)
    F.mse_loss(x, t).backward()
    np.testing.assert_allclose(t.grad.numpy(), [-0.1666666716337204, 0.3333333432674408,
                                                -0.1666666716337204], rtol=1e-6)
    t.grad = None
    F.binary_cross_entropy(x, t).backward()
    np.testing.assert_allclose(t.grad.numpy(), [0.3662041127681732, -0.0, -0.3662041127681732],
                               rtol=1e-6, atol=1e-7)
    t.grad = None
    F.binary_cross_entropy_with_logits(x, t).backward()
    np.testing.assert_allclose(t.grad.numpy(), [-0.0833333358168602, -0.1666666716337204,
                                                -0.25], rtol=1e-6)


def test_mse_broadcast_warns_and_expands_a_target_that_requires_grad():
    x = torch.ones(4, 3, requires_grad=True)
    t = torch.zeros(4, 1, requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        loss = F.mse_loss(x, t)
    assert [str(w.message) for w in caught] == [
        "Using a target size (torch.Size([4, 1])) that is different to the input size "
        "(torch.Size([4, 3])). This will likely lead to incorrect results due to broadcasting. "
        "Please ensure they have the same size."]
    assert [type(f).__name__ for f, _ in loss.grad_fn.next_functions] == [
        "AccumulateGrad", "ExpandBackward0"]
    loss.backward()
    assert t.grad.tolist() == [[-0.5]] * 4


@pytest.mark.filterwarnings("ignore:Using a target size")
@pytest.mark.parametrize("call,kind,message", [
    (lambda: F.mse_loss(torch.ones(4, 3), torch.ones(2, 3)), RuntimeError,
     "The size of tensor a (4) must match the size of tensor b (2) at non-singleton dimension 0"),
    (lambda: F.binary_cross_entropy_with_logits(torch.ones(4, 3), torch.ones(4, 1)), ValueError,
     "Target size (torch.Size([4, 1])) must be the same as input size (torch.Size([4, 3]))"),
    (lambda: F.binary_cross_entropy(torch.ones(4, 3) / 2, torch.ones(12)), ValueError,
     "Using a target size (torch.Size([12])) that is different to the input size "
     "(torch.Size([4, 3])) is deprecated. Please ensure they have the same size."),
    (lambda: F.binary_cross_entropy(torch.ones(2) * 2, torch.ones(2)), RuntimeError,
     "all elements of input should be between 0 and 1"),
    (lambda: F.nll_loss(torch.ones(4, 3), torch.tensor([0, 1, 2])), ValueError,
     "Expected input batch_size (4) to match target batch_size (3)."),
    (lambda: F.nll_loss(torch.ones(4, 3), torch.tensor([0, 1, 2, 3])), IndexError,
     "Target 3 is out of bounds."),
    (lambda: F.cross_entropy(torch.ones(4, 3), torch.tensor([0, 1, 2, -1])), IndexError,
     "Target -1 is out of bounds."),
    (lambda: F.nll_loss(torch.ones(4, 3), torch.tensor([0., 1, 2, 1])), RuntimeError,
     "expected target dtype to be Long or Byte, but got Float"),
    (lambda: F.cross_entropy(torch.ones(4, 3), torch.rand(4, 2)), RuntimeError,
     "0D or 1D target tensor expected, multi-target not supported"),
    (lambda: F.mse_loss(torch.ones(2), torch.ones(2), reduction="avg"), ValueError,
     "avg is not a valid value for reduction"),
    (lambda: F.binary_cross_entropy_with_logits(torch.ones(2), torch.tensor([1, 0])),
     RuntimeError, "result type Float can't be cast to the desired output type Long"),
])
def test_errors_in_pytorchs_words(call, kind, message):
    with pytest.raises(kind) as info:
        call()
    assert str(info.value) == message


def test_ignored_targets_do_not_count_in_the_mean():
    x = torch.tensor([[0.0, 0.0], [5.0, -5.0]], requires_grad=True)
    loss = F.nll_loss(x, torch.tensor([1, -100]))
    assert loss.item() == 0.0
    loss.backward()
    assert x.grad.tolist() == [[0.0, -1.0], [0.0, 0.0]]


def test_binary_cross_entropy_clamps_the_log_at_minus_100():
    # PyTorch 2.13 printed tensor(100.) for a confident wrong answer
    assert F.binary_cross_entropy(torch.tensor([0.0]), torch.tensor([1.0])).item() == 100.0


def test_logits_loss_is_finite_for_large_inputs():
    loss = F.binary_cross_entropy_with_logits(torch.tensor([100.0, -100.0]),
                                              torch.tensor([0.0, 1.0]), reduction="none")
    assert loss.tolist() == [100.0, 100.0]


def test_loss_modules_forward_their_options():
    x = torch.tensor(X0, requires_grad=True)
    assert nn.MSELoss(reduction="sum")(x, T).item() == pytest.approx(9.757499694824219, 1e-6)
    assert nn.CrossEntropyLoss(weight=W3, ignore_index=0)(x, CLS).item() == pytest.approx(
        1.1192548274993896, 1e-6)
    assert nn.BCEWithLogitsLoss(weight=W3, pos_weight=PW)(x, T).item() == pytest.approx(
        0.9106740951538086, 1e-6)
    assert nn.NLLLoss(reduction="none")(x, CLS).tolist() == pytest.approx([-0.7, -1.5, -0.9,
                                                                           -0.5])
    assert repr(nn.CrossEntropyLoss(reduction="sum")) == "CrossEntropyLoss()"
    loss = nn.BCEWithLogitsLoss(pos_weight=PW)
    assert [k for k, _ in loss.named_buffers()] == ["pos_weight"]


def test_legacy_size_average_maps_to_reduction_with_pytorchs_warning():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        m = nn.MSELoss(size_average=False)
    assert m.reduction == "sum"
    assert str(caught[0].message) == ("size_average and reduce args will be deprecated, "
                                      "please use reduction='sum' instead.")


def test_l1_loss_composes_as_pytorch():
    x = torch.tensor([1.0, -2.0], requires_grad=True)
    loss = F.l1_loss(x, torch.zeros(2))
    assert loss.item() == 1.5 and type(loss.grad_fn).__name__ == "MeanBackward0"
    assert nn.L1Loss(reduction="none")(x, torch.zeros(2)).tolist() == [1.0, 2.0]
