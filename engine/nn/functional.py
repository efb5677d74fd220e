"""`torch.nn.functional`: activations, `linear` and the losses as plain functions.

The losses are in `functional_loss.py` (the margin and embedding ones in
`functional_margin_loss.py`), normalisation in `functional_norm.py`, embeddings in
`functional_sparse.py`, distances in `functional_distance.py`, padding in `functional_pad.py`,
hardshrink, softshrink and rrelu in `functional_shrink.py`; all are re-exported here.

Each function checks its arguments in PyTorch's words and then calls one op (`engine.ops`)
or composes a few, recording the same grad_fn chain PyTorch records (`linear` with a bias
on a 2-D input is one `AddmmBackward0`; `cross_entropy` is `NllLossBackward0` over
`LogSoftmaxBackward0`).
"""
from __future__ import annotations

from .. import messages
from ..foreign_operands import refuse
from ..ops import elementwise as _ew
from ..ops import linalg as _la
from ..ops import losses as _loss
from ..ops import nn_gated as _gated
from ..ops import nn_ops as _nn
from ..ops import reduction as _red
from ..tensor import Tensor, new_tensor

_SOFTMAX_DIM_WARNING = ("Implicit dimension choice for {} has been deprecated. Change the call "
                        "to include dim=X as an argument.")
_LEGACY_ARGS_WARNING = ("size_average and reduce args will be deprecated, please use "
                        "reduction='{}' instead.")


def _reduction(reduction: str) -> int:
    if reduction not in _loss.REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return _loss.REDUCTIONS[reduction]


def legacy_reduction(size_average, reduce, reduction: str, warn: bool = True) -> str:
    """Map the deprecated size_average/reduce flags onto `reduction`, warning as PyTorch."""
    if size_average is None and reduce is None:
        return reduction
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    ret = ("mean" if size_average else "sum") if reduce else "none"
    if warn:
        messages.warn(_LEGACY_ARGS_WARNING.format(ret))
    return ret


def _dtype_word(t: Tensor) -> str:
    return {"int64": "Long", "int32": "Int", "bool": "Bool", "uint8": "Byte", "int16": "Short",
            "int8": "Char"}.get(t._data.dtype.name, str(t._data.dtype))


# ---- activations -----------------------------------------------------------------------
def relu(input: Tensor, inplace: bool = False) -> Tensor:
    """max(input, 0) elementwise (`ReluBackward0`)."""
    return input.relu_() if inplace else _ew.relu(input)


def sigmoid(input: Tensor) -> Tensor:
    """1 / (1 + e**-input) elementwise (`SigmoidBackward0`)."""
    return _ew.sigmoid(input)


def tanh(input: Tensor) -> Tensor:
    """tanh elementwise (`TanhBackward0`)."""
    return _ew.tanh(input)


def _softmax_dim(name: str, ndim: int, dim):
    if dim is not None:
        return dim
    messages.warn(_SOFTMAX_DIM_WARNING.format(name))
    # PyTorch's legacy guess: the batch dimension is 0 for 0-, 1- and 3-d inputs
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input: Tensor, dim=None, _stacklevel: int = 3, dtype=None) -> Tensor:
    """exp(x) / sum(exp(x)) along `dim` (`SoftmaxBackward0`).

    Example:
        >>> import gradstep.engine as torch
        >>> softmax(torch.tensor([0.0, 0.0]), dim=0).tolist()
        [0.5, 0.5]
    """
    x = input if dtype is None else input.to(dtype)
    return _red.softmax(x, _softmax_dim("softmax", input.ndim, dim))


def log_softmax(input: Tensor, dim=None, _stacklevel: int = 3, dtype=None) -> Tensor:
    """x - log(sum(exp(x))) along `dim` (`LogSoftmaxBackward0`)."""
    x = input if dtype is None else input.to(dtype)
    return _red.log_softmax(x, _softmax_dim("log_softmax", input.ndim, dim))


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    """x where x > 0, negative_slope * x elsewhere (`LeakyReluBackward0`)."""
    if inplace:     # LeakyReluBackward1, which saves the result
        return _inplace(_nn.LeakyReluInplace, "leaky_relu_", input, negative_slope)
    _floats_only(input, "leaky_relu_cpu")
    return _nn.LeakyRelu.apply(input, negative_slope)


def leaky_relu_(input: Tensor, negative_slope: float = 0.01) -> Tensor:
    """`leaky_relu` in place (`LeakyReluBackward1`)."""
    return leaky_relu(input, negative_slope, True)


def relu_(input: Tensor) -> Tensor:
    """`relu` in place (`ReluBackward0`, saving the result)."""
    return input.relu_()


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    """log(1 + e**(beta x)) / beta, linear past the threshold (`SoftplusBackward0`)."""
    _floats_only(input, "softplus_cpu")
    return _nn.Softplus.apply(input, beta, threshold)


def logsigmoid(input: Tensor) -> Tensor:
    """log(sigmoid(x)), computed without overflow (`LogSigmoidBackward0`)."""
    if input.dtype.is_floating_point is False:
        raise NotImplementedError(
            f'"log_sigmoid_cpu" not implemented for \'{_dtype_word(input)}\'')
    return _nn.LogSigmoid.apply(input)


# PyTorch's F.logsigmoid is the C function log_sigmoid: a loop printing f.__name__ shows that
logsigmoid.__name__ = logsigmoid.__qualname__ = "log_sigmoid"


def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0,
             inplace: bool = False) -> Tensor:
    """x clipped to [min_val, max_val] (`HardtanhBackward0`)."""
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    if inplace:     # still HardtanhBackward0, saving a clone of the input
        return _inplace(_nn.Hardtanh, "hardtanh_", input, min_val, max_val)
    return _nn.Hardtanh.apply(input, min_val, max_val)


def hardtanh_(input: Tensor, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:
    """`hardtanh` in place (`HardtanhBackward0`)."""
    return hardtanh(input, min_val, max_val, True)


def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    """min(max(x, 0), 6): hardtanh between 0 and 6 (`HardtanhBackward0`)."""
    return hardtanh(input, 0.0, 6.0, inplace)


def softmin(input: Tensor, dim=None, _stacklevel: int = 3, dtype=None) -> Tensor:
    """softmax of -x along `dim` (`SoftmaxBackward0` over `NegBackward0`)."""
    x = input if dtype is None else input.to(dtype)
    return _red.softmax(-x, _softmax_dim("softmin", input.ndim, dim))


def softsign(input: Tensor) -> Tensor:
    """x / (1 + |x|), composed as PyTorch composes it (`DivBackward0`)."""
    return input / (input.abs() + 1)


def tanhshrink(input: Tensor) -> Tensor:
    """x - tanh(x) (`SubBackward0`)."""
    return input - input.tanh()


def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12,
              out=None) -> Tensor:
    """x / max(||x||_p along dim, eps), PyTorch's composite (`DivBackward0`)."""
    denom = _red.norm(input, p, dim, True).clamp_min(eps).expand_as(input)
    return input / denom


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    """x * sigmoid(x) (`SiluBackward0`)."""
    _floats_only(input, "silu_cpu")
    return _nn.Silu.apply(input)


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """x for x > 0, alpha * (e**x - 1) otherwise (`EluBackward0`; in place EluBackward1)."""
    _floats_only(input, "elu_cpu")
    if inplace:
        return _inplace(_nn.EluInplace, "elu_", input, alpha, 1, 1)
    return _nn.Elu.apply(input, alpha, 1, 1)


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    """x * Phi(x), or its tanh approximation (`GeluBackward0`)."""
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    _floats_only(input, "GeluKernelImpl")
    return _nn.Gelu.apply(input, approximate)


def _floats_only(input: Tensor, kernel: str) -> None:
    if input.dtype.is_floating_point is False:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_dtype_word(input)}\'')


def _inplace(op, name: str, input: Tensor, *args) -> Tensor:
    from ..ops.inplace import apply_inplace
    return apply_inplace(op, name, input, *args)


def _float_activation(op, name: str, input: Tensor, inplace: bool) -> Tensor:
    """A one-input activation whose kernel takes floats only, in place (`name_`) or not."""
    _floats_only(input, name + "_cpu")
    return _inplace(op, name + "_", input) if inplace else op.apply(input)


def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:
    """min(max(x + 3, 0), 6) / 6 (`HardsigmoidBackward0`).

    Example:
        >>> import gradstep.engine as torch
        >>> hardsigmoid(torch.tensor([-3.0, 0.0, 3.0])).tolist()
        [0.0, 0.5, 1.0]
    """
    return _float_activation(_nn.Hardsigmoid, "hardsigmoid", input, inplace)


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:
    """x * min(max(x + 3, 0), 6) / 6 (`HardswishBackward0`)."""
    return _float_activation(_nn.Hardswish, "hardswish", input, inplace)


def mish(input: Tensor, inplace: bool = False) -> Tensor:
    """x * tanh(softplus(x)) (`MishBackward0`)."""
    return _float_activation(_nn.Mish, "mish", input, inplace)


def selu(input: Tensor, inplace: bool = False) -> Tensor:
    """scale * elu(x, alpha) with SELU's fixed constants; PyTorch records `EluBackward0`
    (in place `EluBackward1`)."""
    _floats_only(input, "elu_cpu")
    if inplace:
        return _inplace(_nn.EluInplace, "selu_", input, _nn.SELU_ALPHA, _nn.SELU_SCALE, 1)
    return _nn.Elu.apply(input, _nn.SELU_ALPHA, _nn.SELU_SCALE, 1)


def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    """x for x > 0, alpha * (e**(x / alpha) - 1) otherwise (`CeluBackward0`; in place
    `CeluBackward1`)."""
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    _floats_only(input, "elu_cpu")
    if inplace:
        return _inplace(_nn.CeluInplace, "celu_", input, alpha)
    return _nn.Celu.apply(input, alpha)


def elu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    """`elu` in place (`EluBackward1`)."""
    return elu(input, alpha, True)


def selu_(input: Tensor) -> Tensor:
    """`selu` in place (`EluBackward1`)."""
    return selu(input, True)


def celu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    """`celu` in place (`CeluBackward1`)."""
    return celu(input, alpha, True)


def threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:
    """value where x <= threshold, else x (`ThresholdBackward0`; in place ThresholdBackward1).

    Example:
        >>> import gradstep.engine as torch
        >>> threshold(torch.tensor([0.5, 1.0, 2.0]), 1.0, -1.0).tolist()
        [-1.0, -1.0, 2.0]
    """
    if inplace:
        return _inplace(_nn.ThresholdInplace, "threshold_", input, threshold, value)
    return _nn.Threshold.apply(input, threshold, value)


threshold.__name__ = threshold.__qualname__ = "_threshold"     # as PyTorch's F.threshold is


def glu(input: Tensor, dim: int = -1) -> Tensor:
    """a * sigmoid(b), a and b the two halves of x along dim (`GluBackward0`)."""
    if input.ndim == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    from ..ops.reduction import dims_of
    d = dims_of(dim, input.ndim)[0]
    if input.shape[d] % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {d} is size "
                           f"{input.shape[d]}")
    _floats_only(input, "glu_cpu")
    return _gated.Glu.apply(input, dim % 2 ** 64)     # its node keeps dim unsigned, as PyTorch's


def prelu(input: Tensor, weight: Tensor) -> Tensor:
    """x where x > 0, weight * x elsewhere, one weight per channel (dim 1)
    (`PreluKernelBackward0`; the weight is viewed to broadcast, as PyTorch does)."""
    if input.dtype != weight.dtype:
        raise RuntimeError(f"prelu: Type promoting not supported. Got "
                           f"{input.dtype.legacy[:-6]} and {weight.dtype.legacy[:-6]}")
    if weight.numel() != 1:
        if input.ndim == 0:
            raise RuntimeError("Not allow zero-dim input tensor.")
        channels = input.shape[1] if input.ndim > 1 else 1
        if channels != weight.numel():
            raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found "
                               f"parameter numbers = {weight.numel()} and channel size = "
                               f"{channels}.")
    if weight.ndim > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: "
                           f"ndim = {weight.ndim}")
    _floats_only(input, "prelu_cpu")
    if input.ndim != weight.ndim:
        shape = [1] * input.ndim
        if input.ndim > 1:
            shape[1] = weight.numel()
        weight = weight.reshape(shape)
    return _gated.Prelu.apply(input, weight)


def dropout(input: Tensor, p: float = 0.5, training: bool = True,
            inplace: bool = False) -> Tensor:
    """Zero each element with probability p and scale the rest by 1/(1-p) while training.

    PyTorch records it as a `MulBackward0` by the scaled mask. The mask is PyTorch's
    `bernoulli_(1 - p)` (one 53-bit uniform draw per element, in order), so seeded programs
    drop the same elements; p = 1 multiplies by zero without drawing.
    """
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return input
    from ..factories import default_generator, zeros
    if p == 1.0:
        return input * zeros((), dtype=input.dtype)
    keep = default_generator.bernoulli(input.numel(), 1 - p).reshape(input.shape)
    return input * (new_tensor(keep.astype(input._data.dtype)) / (1 - p))


# ---- linear ----------------------------------------------------------------------------
def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """input @ weight.T + bias, recorded as PyTorch records it.

    A 2-D input with a bias is one `AddmmBackward0` node; other ranks are flattened to 2-D
    and viewed back (`ViewBackward0`) when contiguous, else multiplied by `matmul` and the
    bias added (`AddBackward0`); without a bias it is `matmul(input, weight.t())`.

    Example:
        >>> import gradstep.engine as torch
        >>> w = torch.ones(1, 3, requires_grad=True)
        >>> y = linear(torch.ones(2, 3), w, torch.zeros(1))
        >>> y.tolist(), type(y.grad_fn).__name__
        ([[3.0], [3.0]], 'AddmmBackward0')
    """
    if not isinstance(input, Tensor):   # model(np_array): PyTorch's parser names linear()
        refuse(input, "linear", "input", 1, numbers=False)
    if bias is None:
        return _la.matmul(input, weight.t())
    if input.ndim == 2:
        wt = weight.t()
        return _nn.Addmm.apply(bias, input, wt, 1, 1, _la.column_major(wt),
                               _la.column_major(input))
    if not input.is_contiguous() and input.ndim > 0:
        # at::linear flattens only a contiguous input; a strided one (a batch_first RNN's
        # output) goes through matmul with the bias added after (AddBackward0)
        return _la.matmul(input, weight.t()) + bias
    lead = input.shape[:-1]
    if input.ndim == 0:
        raise RuntimeError("both arguments to linear need to be at least 1D, but they are 0D "
                           f"and {weight.ndim}D")
    flat = input.reshape(-1, input.shape[-1])
    if flat.shape[1] != weight.shape[1]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({flat.shape[0]}x"
                           f"{flat.shape[1]} and {weight.shape[1]}x{weight.shape[0]})")
    wt = weight.t()
    out = _nn.Addmm.apply(bias, flat, wt, 1, 1, _la.column_major(wt), _la.column_major(flat))
    return out.view(tuple(lead) + (weight.shape[0],))


# the groups kept in files of their own (functional.py is at its size budget)
from .functional_conv import conv1d, conv2d  # noqa: E402
from .functional_distance import cosine_similarity, pairwise_distance  # noqa: E402
from .functional_loss import (binary_cross_entropy,  # noqa: E402
                              binary_cross_entropy_with_logits, cross_entropy,
                              huber_loss, kl_div, l1_loss, mse_loss, nll_loss,
                              smooth_l1_loss)
from .functional_norm import batch_norm, layer_norm  # noqa: E402
from .functional_pad import pad  # noqa: E402
from .functional_gumbel import gumbel_softmax  # noqa: E402
from .functional_adaptive_pool import (adaptive_avg_pool1d,  # noqa: E402
                                       adaptive_avg_pool2d, adaptive_max_pool1d,
                                       adaptive_max_pool2d)
from .functional_pool import avg_pool1d, avg_pool2d, max_pool1d, max_pool2d  # noqa: E402
from .functional_sparse import embedding, one_hot  # noqa: E402
from .functional_margin_loss import (cosine_embedding_loss,  # noqa: E402
                                     hinge_embedding_loss, margin_ranking_loss,
                                     soft_margin_loss)
from .functional_shrink import hardshrink, rrelu, rrelu_, softshrink  # noqa: E402
from .functional_attention import (multi_head_attention_forward,  # noqa: E402
                                   scaled_dot_product_attention)
from .functional_dropout import dropout1d, dropout2d, dropout3d  # noqa: E402
from .functional_embedding_bag import embedding_bag  # noqa: E402

__all__ = ["relu", "sigmoid", "tanh", "softmax", "log_softmax", "leaky_relu", "linear",
           "mse_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits",
           "cross_entropy", "nll_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "softplus",
           "silu", "elu", "gelu", "logsigmoid", "hardtanh", "hardsigmoid", "hardswish", "mish",
           "selu", "celu", "threshold", "glu", "prelu", "elu_", "selu_", "celu_", "relu_",
           "leaky_relu_", "hardtanh_",
           "relu6", "softmin", "softsign", "tanhshrink", "normalize",
           "dropout", "dropout1d", "dropout2d", "dropout3d", "embedding", "embedding_bag",
           "one_hot", "layer_norm",
           "batch_norm", "cosine_similarity", "pairwise_distance", "kl_div", "pad", "conv1d",
           "conv2d", "max_pool2d", "avg_pool2d", "max_pool1d", "avg_pool1d",
           "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_max_pool1d",
           "adaptive_max_pool2d", "hardshrink", "softshrink", "rrelu", "rrelu_",
           "margin_ranking_loss", "hinge_embedding_loss", "soft_margin_loss",
           "cosine_embedding_loss", "gumbel_softmax", "scaled_dot_product_attention",
           "multi_head_attention_forward"]
