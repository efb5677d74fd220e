"""The margin and embedding losses of `torch.nn.functional`: margin ranking, hinge embedding,
soft margin and cosine embedding.

PyTorch composes all but soft_margin_loss from plain ops in C++; the same compositions here
record its grad_fn chains (margin_ranking_loss: ClampMinBackward0 over AddBackward1 over
MulBackward0 over SubBackward0, then the reduction). Two C++ spellings differ from Python's:
`tensor + scalar` is add.Scalar (AddBackward1, not AddBackward0), spelled AddScalar.apply
below; `scalar - tensor` fills a tensor with the scalar and subtracts in place, so it prints
SubBackward0 (not RsubBackward1), spelled `full_like(x, scalar) - x`. Re-exported by
`engine.nn.functional`.
"""
from __future__ import annotations

from .. import messages
from ..factories import full_like, zeros_like
from ..grad_mode import is_grad_enabled
from ..ops import losses as _loss
from ..ops import soft_margin_loss as _soft
from ..ops.arithmetic import AddScalar, SubScalar
from ..ops.elementwise import where
from ..tensor import Tensor
from .functional import _dtype_word, _reduction, legacy_reduction

_EPSILON = 1e-12       # PyTorch's guard on the squared norms in cosine_embedding_loss


def _reduced(out: Tensor, code: int) -> Tensor:
    """PyTorch's apply_loss_reduction: mean() or sum() of the elementwise losses."""
    if code == _loss.MEAN:
        return out.mean()
    return out.sum() if code == _loss.SUM else out


def _pick(condition: Tensor, input: Tensor, zeros: Tensor) -> Tensor:
    """where(condition, input, zeros), refusing a condition of another size in PyTorch's words.
    """
    msg = messages.size_mismatch(tuple(condition.shape), tuple(input.shape))
    if msg:
        raise RuntimeError(msg)
    return where(condition, input, zeros)


def _code(size_average, reduce, reduction: str) -> int:
    return _reduction(legacy_reduction(size_average, reduce, reduction))


def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0,
                        size_average=None, reduce=None, reduction: str = "mean") -> Tensor:
    """max(0, -target * (input1 - input2) + margin), reduced.

    Example:
        >>> import gradstep.engine as torch
        >>> a, b = torch.tensor([1.0, 0.0]), torch.tensor([0.0, 1.0])
        >>> margin_ranking_loss(a, b, torch.tensor([1.0, 1.0])).item()
        0.5
    """
    code = _code(size_average, reduce, reduction)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError("margin_ranking_loss : All input tensors should have same dimension "
                           f"but got sizes: input1: {input1.size()}, input2: {input2.size()}, "
                           f"target: {target.size()} ")
    return _reduced(AddScalar.apply((-target) * (input1 - input2), margin).clamp_min_(0), code)


def hinge_embedding_loss(input: Tensor, target: Tensor, margin: float = 1.0,
                         size_average=None, reduce=None, reduction: str = "mean") -> Tensor:
    """input where target is 1, max(0, margin - input) where target is -1, reduced.

    Example:
        >>> import gradstep.engine as torch
        >>> hinge_embedding_loss(torch.tensor([0.3, 0.2]), torch.tensor([1, -1])).item()
        0.550000011920929
    """
    code = _code(size_average, reduce, reduction)
    zeros = zeros_like(input)
    margin_clamp = (full_like(input, margin) - input).clamp_min_(0)
    output_margin = _pick(target != 1, margin_clamp, zeros)
    output_self = _pick(target != -1, input, zeros)
    return _reduced(output_margin + output_self, code)


def soft_margin_loss(input: Tensor, target: Tensor, size_average=None, reduce=None,
                     reduction: str = "mean") -> Tensor:
    """log(1 + exp(-target * input)), reduced (`SoftMarginLossBackward0`).

    Example:
        >>> import gradstep.engine as torch
        >>> round(soft_margin_loss(torch.tensor([0.0]), torch.tensor([1.0])).item(), 4)
        0.6931
    """
    code = _code(size_average, reduce, reduction)
    if target.requires_grad and is_grad_enabled():
        raise RuntimeError("The function 'soft_margin_loss' is not differentiable with respect "
                           "to argument 'target'. This input cannot have requires_grad True.")
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"result type Float can't be cast to the desired output type "
                           f"{_dtype_word(input)}")
    if tuple(target.shape) != tuple(input.shape):      # the kernel broadcasts, or refuses
        from .functional_loss import _broadcast_pair
        input, target = _broadcast_pair(input, target)
    return _soft.SoftMarginLoss.apply(input, target, code)


def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0,
                          size_average=None, reduce=None, reduction: str = "mean") -> Tensor:
    """1 - cos(input1, input2) where target is 1, max(0, cos - margin) where it is -1, reduced.

    Example:
        >>> import gradstep.engine as torch
        >>> x = torch.tensor([[1.0, 0.0]])
        >>> cosine_embedding_loss(x, x, torch.tensor([-1])).item()
        1.0
    """
    code = _code(size_average, reduce, reduction)
    dim = target.dim()
    if dim not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    want = 2 if dim == 1 else 1
    if input1.dim() != want or input2.dim() != want:
        raise RuntimeError(f"{dim}D target tensor expects {want}D input tensors, but found "
                           f"inputs with sizes {list(input1.shape)} and {list(input2.shape)}.")
    prod_sum = (input1 * input2).sum(dim)
    mag_square1 = AddScalar.apply((input1 * input1).sum(dim), _EPSILON)
    mag_square2 = AddScalar.apply((input2 * input2).sum(dim), _EPSILON)
    cos = prod_sum / (mag_square1 * mag_square2).sqrt_()
    zeros = zeros_like(cos)
    pos = full_like(cos, 1) - cos
    neg = SubScalar.apply(cos, margin).clamp_min_(0)
    return _reduced(_pick(target == 1, pos, zeros) + _pick(target == -1, neg, zeros), code)


__all__ = ["margin_ranking_loss", "hinge_embedding_loss", "soft_margin_loss",
           "cosine_embedding_loss"]
