"""Activation layers: ReLU, LeakyReLU, Tanh, Sigmoid, Softmax, ..., PReLU (with a learnable
weight), Flatten.

PyTorch counterparts: the `torch.nn` classes of the same names; each forwards to the
function in `nn.functional` and prints its arguments as PyTorch does (`Softmax(dim=1)`).
"""
from __future__ import annotations

from . import functional as F
from .module import Module


class ReLU(Module):
    """max(x, 0) elementwise.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.nn.ReLU()(torch.tensor([-1.0, 2.0])).tolist()
        [0.0, 2.0]
    """

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class LeakyReLU(Module):
    """x for x > 0, negative_slope * x otherwise."""

    def __init__(self, negative_slope: float = 1e-2, inplace: bool = False) -> None:
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input):
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self) -> str:
        return f"negative_slope={self.negative_slope}" + (", inplace=True" if self.inplace
                                                           else "")


class Tanh(Module):
    """tanh elementwise."""

    def forward(self, input):
        return F.tanh(input)


class Sigmoid(Module):
    """1 / (1 + e**-x) elementwise."""

    def forward(self, input):
        return F.sigmoid(input)


class Softmax(Module):
    """Softmax along `dim` (PyTorch's legacy guess, with its warning, when dim is None)."""

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmax(input, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class Softmin(Softmax):
    """Softmax of -x along `dim`."""

    def forward(self, input):
        return F.softmin(input, self.dim)


class LogSoftmax(Softmax):
    """log(softmax(x)) along `dim`, computed stably."""

    def forward(self, input):
        return F.log_softmax(input, self.dim)


class Softplus(Module):
    """log(1 + e**(beta x)) / beta."""

    def __init__(self, beta: float = 1.0, threshold: float = 20.0) -> None:
        super().__init__()
        self.beta, self.threshold = beta, threshold

    def forward(self, input):
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self) -> str:
        return f"beta={self.beta}, threshold={self.threshold}"


class SiLU(Module):
    """x * sigmoid(x)."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.silu(input)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class ELU(Module):
    """x for x > 0, alpha * (e**x - 1) otherwise."""

    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.alpha, self.inplace = alpha, inplace

    def forward(self, input):
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")


class LogSigmoid(Module):
    """log(sigmoid(x))."""

    def forward(self, input):
        return F.logsigmoid(input)


class Hardtanh(Module):
    """x clipped to [min_val, max_val]."""

    def __init__(self, min_val: float = -1.0, max_val: float = 1.0,
                 inplace: bool = False) -> None:
        super().__init__()
        self.min_val, self.max_val, self.inplace = min_val, max_val, inplace
        assert self.max_val > self.min_val

    def forward(self, input):
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self) -> str:
        return (f"min_val={self.min_val}, max_val={self.max_val}"
                + (", inplace=True" if self.inplace else ""))


class ReLU6(Hardtanh):
    """min(max(x, 0), 6)."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__(0.0, 6.0, inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class Softsign(Module):
    """x / (1 + |x|)."""

    def forward(self, input):
        return F.softsign(input)


class Tanhshrink(Module):
    """x - tanh(x)."""

    def forward(self, input):
        return F.tanhshrink(input)


class GELU(Module):
    """x * Phi(x) (Phi the standard normal CDF)."""

    def __init__(self, approximate: str = "none") -> None:
        super().__init__()
        self.approximate = approximate

    def forward(self, input):
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self) -> str:
        return f"approximate={self.approximate!r}"


class Hardsigmoid(Module):
    """min(max(x + 3, 0), 6) / 6."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace      # PyTorch does not print it

    def forward(self, input):
        return F.hardsigmoid(input, self.inplace)


class Hardswish(Hardsigmoid):
    """x * min(max(x + 3, 0), 6) / 6."""

    def forward(self, input):
        return F.hardswish(input, self.inplace)


class Mish(Module):
    """x * tanh(softplus(x))."""

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.mish(input, self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class SELU(Mish):
    """scale * elu(x, alpha) with SELU's fixed constants."""

    def forward(self, input):
        return F.selu(input, self.inplace)


class CELU(Module):
    """x for x > 0, alpha * (e**(x / alpha) - 1) otherwise."""

    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.alpha, self.inplace = alpha, inplace

    def forward(self, input):
        return F.celu(input, self.alpha, self.inplace)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")


class Threshold(Module):
    """value where x <= threshold, else x."""

    def __init__(self, threshold: float, value: float, inplace: bool = False) -> None:
        super().__init__()
        self.threshold, self.value, self.inplace = threshold, value, inplace

    def forward(self, input):
        return F.threshold(input, self.threshold, self.value, self.inplace)

    def extra_repr(self) -> str:
        return (f"threshold={self.threshold}, value={self.value}"
                + (", inplace=True" if self.inplace else ""))


class GLU(Module):
    """a * sigmoid(b), a and b the two halves of the input along `dim`."""

    def __init__(self, dim: int = -1) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.glu(input, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class PReLU(Module):
    """x for x > 0, weight * x otherwise, with a learnable weight (one, or one per channel).

    Example:
        >>> import gradstep.engine as torch
        >>> m = torch.nn.PReLU()
        >>> m(torch.tensor([-2.0, 1.0])).tolist(), m.weight.tolist()
        ([-0.5, 1.0], [0.25])
    """

    def __init__(self, num_parameters: int = 1, init: float = 0.25, device=None,
                 dtype=None) -> None:
        from ..factories import empty
        from .parameter import Parameter
        self.num_parameters, self.init = num_parameters, init
        super().__init__()
        self.weight = Parameter(empty(num_parameters, dtype=dtype))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        from . import init
        init.constant_(self.weight, self.init)

    def forward(self, input):
        return F.prelu(input, self.weight)

    def extra_repr(self) -> str:
        return f"num_parameters={self.num_parameters}"


class _DropoutNd(Module):
    """What the dropout modules share: p, inplace, and how they print."""

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p, self.inplace = p, inplace

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


class Dropout(_DropoutNd):
    """Randomly zero elements with probability p while training; the identity in eval()."""

    def forward(self, input):
        return F.dropout(input, self.p, self.training, self.inplace)


class Dropout1d(_DropoutNd):
    """Randomly zero whole channels of (N, C, L) or (C, L) inputs while training."""

    def forward(self, input):
        return F.dropout1d(input, self.p, self.training, self.inplace)


class Dropout2d(_DropoutNd):
    """Randomly zero whole channels of (N, C, H, W) inputs while training."""

    def forward(self, input):
        return F.dropout2d(input, self.p, self.training, self.inplace)


class Dropout3d(_DropoutNd):
    """Randomly zero whole channels of (N, C, D, H, W) or (C, D, H, W) inputs while training."""

    def forward(self, input):
        return F.dropout3d(input, self.p, self.training, self.inplace)


class Flatten(Module):
    """Flatten dims start_dim..end_dim into one (by default all but the batch dim)."""

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input):
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Split dimension `dim` into `unflattened_size` (a view, `ViewBackward0`)."""

    def __init__(self, dim: int, unflattened_size) -> None:
        super().__init__()
        if not isinstance(unflattened_size, (tuple, list)):
            raise TypeError("unflattened_size must be a tuple of ints, but found type "
                            f"{type(unflattened_size).__name__}")
        for n in unflattened_size:
            if not isinstance(n, int):
                raise TypeError("unflattened_size must be tuple of ints, but found element of "
                                f"type {type(n).__name__} at pos {unflattened_size.index(n)}")
        self.dim = dim
        self.unflattened_size = unflattened_size

    def forward(self, input):
        return input.unflatten(self.dim, self.unflattened_size)

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"


__all__ = ["ReLU", "LeakyReLU", "Tanh", "Sigmoid", "Softmax", "LogSoftmax", "Softplus", "SiLU",
           "ELU", "GELU", "LogSigmoid", "Hardtanh", "ReLU6", "Hardsigmoid", "Hardswish", "Mish",
           "SELU", "CELU", "Threshold", "GLU", "PReLU",
           "Softmin", "Softsign", "Tanhshrink", "Dropout", "Dropout1d", "Dropout2d", "Dropout3d",
           "Flatten", "Unflatten"]
