"""The losses of `torch.nn.functional`: mse, l1, smooth l1, huber, binary cross entropy (with
logits), nll, cross entropy and kl_div, with PyTorch's argument checks, warnings and messages.

Each calls one loss op (`engine.ops.losses`) or composes a few, recording PyTorch's grad_fn
chain (`cross_entropy` is `NllLossBackward0` over `LogSoftmaxBackward0`). Re-exported by
`engine.nn.functional`.
"""
from __future__ import annotations

from .. import messages
from ..ops import losses as _loss
from ..ops.nll_loss2d import NllLoss2d
from ..ops import nn_ops as _nn
from ..ops import reduction as _red
from ..tensor import Tensor
from .functional import _dtype_word, _reduction, legacy_reduction


def _same_size_warning(input: Tensor, target: Tensor) -> None:
    messages.warn(f"Using a target size ({target.shape!r}) that is different to the input size "
                  f"({input.shape!r}). This will likely lead to incorrect results due to "
                  "broadcasting. Please ensure they have the same size.")


def _broadcast_pair(input: Tensor, target: Tensor) -> tuple:
    """Expand both to their common shape (each only if it changes), or PyTorch's error."""
    if input._data.shape == target._data.shape:     # the usual case: nothing to expand
        return input, target
    msg = messages.size_mismatch(tuple(input.shape), tuple(target.shape))
    if msg:
        raise RuntimeError(msg)
    import numpy as np
    shape = tuple(np.broadcast_shapes(tuple(input.shape), tuple(target.shape)))
    return (input if tuple(input.shape) == shape else input.expand(shape),
            target if tuple(target.shape) == shape else target.expand(shape))


def _floats_only_pair(input: Tensor, target: Tensor, kernel: str) -> None:
    """A pointwise loss kernel runs in the promoted dtype, and only for floating ones."""
    if not (input.dtype.is_floating_point or target.dtype.is_floating_point):
        from ..dtypes import result_type
        word = result_type([input.dtype, target.dtype], [], []).legacy[:-6]
        raise NotImplementedError(f'"{kernel}" not implemented for \'{word}\'')


def mse_loss(input: Tensor, target: Tensor, size_average=None, reduce=None,
             reduction: str = "mean", weight=None) -> Tensor:
    """Mean (or sum, or none) of the squared differences (`MseLossBackward0`).

    Example:
        >>> import gradstep.engine as torch
        >>> mse_loss(torch.tensor([1.0, 3.0]), torch.tensor([0.0, 0.0])).item()
        5.0
    """
    reduction = legacy_reduction(size_average, reduce, reduction)
    if tuple(target.shape) != tuple(input.shape):
        _same_size_warning(input, target)
    code = _reduction(reduction)
    _floats_only_pair(input, target, "mse_cpu")
    input, target = _broadcast_pair(input, target)
    return _loss.MseLoss.apply(input, target, code)


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight=None,
                                     size_average=None, reduce=None, reduction: str = "mean",
                                     pos_weight=None) -> Tensor:
    """Binary cross entropy on logits, stable for large |x|
    (`BinaryCrossEntropyWithLogitsBackward0`)."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"Target size ({target.shape!r}) must be the same as input size "
                         f"({input.shape!r})")
    code = _reduction(reduction)
    target = _as_float_target(target, input)
    return _loss.BinaryCrossEntropyWithLogits.apply(input, target, _expanded(weight, input),
                                                    pos_weight, code)


def binary_cross_entropy(input: Tensor, target: Tensor, weight=None, size_average=None,
                         reduce=None, reduction: str = "mean") -> Tensor:
    """-(t log x + (1 - t) log(1 - x)) for probabilities x (`BinaryCrossEntropyBackward0`)."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    code = _reduction(reduction)
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"Using a target size ({target.shape!r}) that is different to the "
                         f"input size ({input.shape!r}) is deprecated. Please ensure they have "
                         "the same size.")
    if target.dtype is not input.dtype:     # the kernel takes one dtype: no promotion here
        raise RuntimeError(f"Found dtype {target.dtype.legacy[:-6]} but expected "
                           f"{input.dtype.legacy[:-6]}")
    return _loss.BinaryCrossEntropy.apply(input, target, _expanded(weight, input), code)


def _as_float_target(target: Tensor, input: Tensor) -> Tensor:
    if target._data.dtype.kind not in "fc":
        raise RuntimeError(f"result type Float can't be cast to the desired output type "
                           f"{_dtype_word(target)}")
    return target


def _expanded(weight, input: Tensor):
    """A weight broadcast to the input's shape (an error in PyTorch's words if it cannot)."""
    if weight is None:
        return None
    msg = messages.size_mismatch(tuple(weight.shape), tuple(input.shape))
    if msg:
        raise RuntimeError(msg)
    return weight


def _check_nll_batch(input: Tensor, target: Tensor) -> None:
    """PyTorch's first checks, before any on the target's rank: the input has a dimension,
    and batched inputs agree with the target on the batch size."""
    if input.ndim < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {input.ndim})")
    if input.ndim == 1:
        return
    # PyTorch reads a 0-d target's batch size as 0, then fails on asking its dimension 0.
    n_t = target.shape[0] if target.ndim else 0
    if input.shape[0] != n_t:
        raise ValueError(f"Expected input batch_size ({input.shape[0]}) to match target "
                         f"batch_size ({n_t}).")
    if target.ndim == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")


def _check_nll(input: Tensor, target: Tensor) -> None:
    """The checks of PyTorch's 1-D and 2-D kernel, in its order: target rank, a 1-D input's
    target size, target dtype."""
    if target.ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if input.ndim == 1 and target.ndim == 1 and target.shape[0] != 1:
        raise ValueError(f"For 1D input, 1D target must have size 1, but got target size: "
                         f"{target.shape[0]}")
    if target._data.dtype.char not in "qlB":     # int64 or uint8 only, as PyTorch's kernel
        word = "Float" if target._data.dtype.kind == "f" else _dtype_word(target)
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {word}")


def nll_loss(input: Tensor, target: Tensor, weight=None, size_average=None,
             ignore_index: int = -100, reduce=None, reduction: str = "mean") -> Tensor:
    """-input[n, target[n]] (weighted, averaged over the weights) (`NllLossBackward0`).

    Example:
        >>> import gradstep.engine as torch
        >>> nll_loss(torch.tensor([[-1.0, -2.0]]), torch.tensor([1])).item()
        2.0
    """
    reduction = legacy_reduction(size_average, reduce, reduction)
    code = _reduction(reduction)
    _check_nll_batch(input, target)
    if input.ndim > 2:
        return _nll_loss_nd(input, target, weight, code, ignore_index)
    _check_nll(input, target)
    c = input.shape[-1]
    t = target._data.reshape(-1)
    for v in t:
        if v != ignore_index and not 0 <= v < c:
            raise IndexError(f"Target {int(v)} is out of bounds.")
    return _loss.NllLoss.apply(input, target, weight, code, _loss.as_saved_index(ignore_index))


def _nll_loss_nd(input: Tensor, target: Tensor, weight, code: int, ignore_index: int):
    """nll_loss of an (N, C, d1, d2, ...) input: PyTorch's nll_loss2d, straight for 4-D, on
    views to (N, C, 1, -1) for the other ranks (the unreduced loss viewed back)."""
    n, c = input.shape[:2]
    out_size = (n,) + tuple(input.shape[2:])
    if input.ndim != 4:
        if tuple(target.shape[1:]) != tuple(input.shape[2:]):
            raise RuntimeError(f"Expected target size {list(out_size)}, got "
                               f"{list(target.shape)}")
        input = input.contiguous().view(n, c, 1, -1)
        target = target.contiguous().view(n, 1, -1)
    if target.ndim != 3:
        raise RuntimeError("only batches of spatial targets supported (3D tensors) but got "
                           f"targets of dimension: {target.ndim}")
    if (input.shape[2], input.shape[3]) != tuple(target.shape[1:]):
        raise RuntimeError(f"size mismatch (got input: {list(input.shape)} , target: "
                           f"{list(target.shape)}")
    if target._data.dtype.char not in "qlB":
        word = "Float" if target._data.dtype.kind == "f" else _dtype_word(target)
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {word}")
    for v in target._data.reshape(-1):
        if v != ignore_index and not 0 <= v < c:
            raise IndexError(f"Target {int(v)} is out of bounds.")
    out = NllLoss2d.apply(input, target, weight, code, _loss.as_saved_index(ignore_index))
    return out.view(out_size) if code == _loss.NONE and len(out_size) != 3 else out


def cross_entropy(input: Tensor, target: Tensor, weight=None, size_average=None,
                  ignore_index: int = -100, reduce=None, reduction: str = "mean",
                  label_smoothing: float = 0.0) -> Tensor:
    """log_softmax over the class dimension, then nll_loss (or, for probability targets,
    -sum(target * log_softmax) averaged over the batch).

    Example:
        >>> import gradstep.engine as torch
        >>> x = torch.zeros(1, 4, requires_grad=True)
        >>> loss = cross_entropy(x, torch.tensor([2]))
        >>> round(loss.item(), 4), type(loss.grad_fn).__name__
        (1.3863, 'NllLossBackward0')
    """
    reduction = legacy_reduction(size_average, reduce, reduction)
    code = _reduction(reduction)
    smooth = label_smoothing > 0.0      # PyTorch ignores a negative label_smoothing
    if smooth and label_smoothing > 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: "
                           f"{label_smoothing:g}")
    class_dim = 0 if input.ndim == 1 else 1
    # Same shapes mean class probabilities to PyTorch, whatever the target's dtype.
    soft = tuple(target.shape) == tuple(input.shape)
    if soft and target._data.dtype.kind not in "fc":
        raise RuntimeError(f"Expected floating point type for target with class "
                           f"probabilities, got {_dtype_word(target)}")
    if input.ndim == 0:
        raise IndexError("Dimension specified as 1 but tensor has no dimensions")
    logp = _red.log_softmax(input, class_dim)
    if soft:
        if smooth:
            n = input.shape[class_dim]
            target = target * (1 - label_smoothing) + label_smoothing / n
        return _soft_cross_entropy(logp, target, weight, code, class_dim)
    nll = nll_loss(logp, target, weight, None, ignore_index, None, reduction)
    if not smooth:
        return nll
    return _smoothed(nll, logp, target, weight, code, class_dim, ignore_index, label_smoothing)


def _smoothed(nll, logp, target, weight, code, class_dim, ignore_index, eps):
    """PyTorch's cross_entropy_loss_label_smoothing: (1 - eps) * nll plus eps / classes times
    the summed -log-probabilities (weighted; 0 at ignored targets), reduced as nll_loss is."""
    from ..ops.arithmetic import MulScalar
    ignored = target == ignore_index
    if weight is not None:
        shape = [1] * logp.ndim
        shape[class_dim] = weight.shape[0]
        smooth = -(logp * weight.view(shape)).sum(class_dim)
    else:
        smooth = -logp.sum(class_dim)
    smooth = smooth.masked_fill_(ignored, 0.0)
    if code == _loss.MEAN:
        kept = ~ignored
        denom = (weight[target[kept].flatten()].sum() if weight is not None else kept.sum())
        smooth = smooth.sum() / denom
    elif code == _loss.SUM:
        smooth = smooth.sum()
    return (MulScalar.apply(nll, 1 - eps)
            + MulScalar.apply(smooth, eps / logp.shape[class_dim]))


def _soft_cross_entropy(logp: Tensor, target: Tensor, weight, code: int, class_dim: int):
    """Cross entropy against class probabilities, composed as PyTorch composes it."""
    terms = logp * target
    if weight is not None:
        shape = [1] * logp.ndim
        shape[class_dim] = logp.shape[class_dim]
        terms = terms * weight.reshape(shape)
    if code == _loss.NONE:
        return -terms.sum(class_dim)
    total = -terms.sum()
    if code == _loss.SUM:
        return total
    return _nn.DivScalar.apply(total, logp.numel() // logp.shape[class_dim] if logp.ndim > 1
                               else 1)


def l1_loss(input: Tensor, target: Tensor, size_average=None, reduce=None,
            reduction: str = "mean") -> Tensor:
    """Mean absolute difference; PyTorch composes it too (MeanBackward0 over AbsBackward0)."""
    if tuple(target.shape) != tuple(input.shape):
        _same_size_warning(input, target)
    code = _reduction(legacy_reduction(size_average, reduce, reduction))
    d = (input - target).abs()
    return d if code == _loss.NONE else (d.sum() if code == _loss.SUM else d.mean())


def smooth_l1_loss(input: Tensor, target: Tensor, size_average=None, reduce=None,
                   reduction: str = "mean", beta: float = 1.0) -> Tensor:
    """Squared below `beta`, absolute above (`SmoothL1LossBackward0`)."""
    code = _reduction(legacy_reduction(size_average, reduce, reduction))
    if tuple(target.shape) != tuple(input.shape):
        _same_size_warning(input, target)
    _floats_only_pair(input, target, "smooth_l1_cpu")
    input, target = _broadcast_pair(input, target)
    return _loss.SmoothL1Loss.apply(input, target, code, float(beta))


def huber_loss(input: Tensor, target: Tensor, reduction: str = "mean",
               delta: float = 1.0, weight=None) -> Tensor:
    """Squared below `delta`, delta-scaled absolute above (`HuberLossBackward0`)."""
    if tuple(target.shape) != tuple(input.shape):
        _same_size_warning(input, target)
    _floats_only_pair(input, target, "huber_cpu")
    input, target = _broadcast_pair(input, target)
    return _loss.HuberLoss.apply(input, target, _reduction(reduction), float(delta))


_KL_MEAN_WARNING = ("reduction: 'mean' divides the total loss by both the batch size and the "
                    "support size.'batchmean' divides only by the batch size, and aligns with "
                    "the KL div math definition.'mean' will be changed to behave the same as "
                    "'batchmean' in the next major release.")


def kl_div(input: Tensor, target: Tensor, size_average=None, reduce=None,
           reduction: str = "mean", log_target: bool = False) -> Tensor:
    """KL divergence of `target` from exp(input): target * (log target - input), reduced.

    `input` holds log-probabilities; `target` probabilities, or log-probabilities with
    `log_target=True`. As PyTorch composes it: xlogy(t, t) - t * input (`SubBackward0` over
    `XlogyBackward0` and `MulBackward0`), or exp(t) * (t - input) with log targets; then
    `SumBackward0` / `MeanBackward0`, and 'batchmean' divides the sum by the batch size
    (`DivBackward0`). 'mean' divides by every element and warns.

    Example:
        >>> import gradstep.engine as torch
        >>> p = torch.tensor([0.5, 0.5])
        >>> kl_div(p.log(), p, reduction="sum").item()
        0.0
    """
    if not input.dtype.is_floating_point or not target.dtype.is_floating_point:
        raise RuntimeError("kl_div: Integral inputs not supported.")
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce, reduction)
    elif reduction == "mean":
        messages.warn(_KL_MEAN_WARNING)
    code = _reduction("sum" if reduction == "batchmean" else reduction)
    if log_target:
        out = target.exp() * (target - input)
    else:
        from ..ops.xlogy import xlogy
        out = xlogy(target, target) - target * input
    out = out.sum() if code == _loss.SUM else out.mean() if code == _loss.MEAN else out
    if reduction == "batchmean" and input.ndim != 0:
        out = out / input.shape[0]
    return out
