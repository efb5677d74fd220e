"""In-place forms of the binary math ops: `Tensor.xlogy_`, `atan2_` (`arctan2_`),
`float_power_` and `heaviside_` (and `torch.xlogy_`).

PyTorch counterparts of the same names. Each reuses its out-of-place op class, so the node is
the same (XlogyBackward0, Atan2Backward0, PowBackward0/1), except heaviside_, whose
NotImplemented node names the in-place op when asked for a derivative. PyTorch's argument
rules differ per op and are kept: xlogy_ takes a number, atan2_ and heaviside_ only a
tensor, and float_power_ only writes into a float64 tensor (its result is always float64).
"""
from __future__ import annotations

from ..foreign_operands import _NUMBERS, refuse
from ..tensor import Tensor
from .binary_math import _METHOD_OVERLOADS, Heaviside, _parser_error
from .inplace import apply_inplace
from .inverse_trig import Atan2
from .xlogy import Xlogy


class HeavisideInPlace(Heaviside):
    """self = heaviside(self, values) (no derivative; the error names heaviside_)"""
    name = "heaviside_"

    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::heaviside_ is not implemented")


def xlogy_(self: Tensor, other) -> Tensor:
    """self * log(other) written into self; `other` a tensor or a number.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.tensor([0.0, 2.0]).xlogy_(1.0).tolist()
        [0.0, 0.0]
    """
    if not isinstance(other, Tensor):
        from ..factories import tensor
        other = tensor(refuse(other, "xlogy_", "other", 1, True))
    if not self.dtype.is_floating_point:    # xlogy's float result cannot go back in
        raise RuntimeError("result type Float can't be cast to the desired output type "
                           + self.dtype.legacy[:-len("Tensor")])
    return apply_inplace(Xlogy, "xlogy_", self, other)


def atan2_(self: Tensor, other, name: str = "atan2_") -> Tensor:
    """atan2(self, other) written into self; `other` must be a tensor."""
    if not isinstance(other, Tensor):
        refuse(other, name, "other", 1, False)
    return apply_inplace(Atan2, name, self, other)


def float_power_(self: Tensor, exponent) -> Tensor:
    """self ** exponent in float64, written into self, which must therefore be float64."""
    from ..dtypes import float64
    if not isinstance(exponent, (Tensor, _NUMBERS)):
        raise _parser_error("float_power_", (exponent,),
                            tuple(o.format("exponent") for o in _METHOD_OVERLOADS), True)
    if self.dtype != float64:
        word = self.dtype.legacy[:-len("Tensor")]
        raise RuntimeError(f"the base given to float_power_ has dtype {word} but the "
                           "operation's result requires dtype Double")
    if isinstance(exponent, Tensor):
        from .arithmetic import PowTensor
        return apply_inplace(PowTensor, "float_power_", self, exponent.to(float64))
    from .arithmetic import PowScalar
    return apply_inplace(PowScalar, "float_power_", self, float(exponent))


def heaviside_(self: Tensor, values) -> Tensor:
    """heaviside(self, values) written into self; no derivative."""
    if not isinstance(values, Tensor):
        refuse(values, "heaviside_", "values", 1, False)
    if self._data.dtype != values._data.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")
    return apply_inplace(HeavisideInPlace, "heaviside_", self, values)


__all__ = ["xlogy_", "atan2_", "float_power_", "heaviside_", "HeavisideInPlace"]
