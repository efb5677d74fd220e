"""Reductions and normalisations along dimensions: sum, mean, max/min, prod, norm, softmax.

PyTorch counterparts: `torch.sum`, `torch.mean`, `torch.max`, `torch.prod`, `torch.norm`,
`torch.softmax`, `torch.log_softmax`. Full reductions and `dim=` reductions are separate
overloads with separate grad_fn names (SumBackward0 vs SumBackward1), so separate classes.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from .._names import TorchNamed, numpy_kwargs
from ..tensor import Tensor, new_tensor
from . import _norm_order, _sum_order
from ._dims import dim_of, dims_of  # (dims_of: imported from here too)
from ._op import Op, as_array
from .complex import refuse
from .prod_grad import prod_backward, prod_dim_backward
from ._tangents import from_backward
from .shape import Expand


class _ReturnType(namedtuple("_ReturnType", ("values", "indices")), metaclass=TorchNamed):
    """PyTorch's `torch.return_types.<op>`: a (values, indices) named tuple."""

    __slots__ = ()
    op = ""

    def __repr__(self) -> str:
        from ..printing import structseq_repr
        return structseq_repr(self.op, self._asdict())


def return_type(op: str) -> type:
    """The named tuple class PyTorch calls `torch.return_types.<op>`."""
    return type(op, (_ReturnType,), {"__slots__": (), "op": op,
                                     "_torch_name": f"torch.return_types.{op}"})


max_return, min_return = return_type("max"), return_type("min")


def _keep_shape(sizes: tuple, dims: tuple) -> tuple:
    return tuple(1 if i in dims else n for i, n in enumerate(sizes))


def _regrow(grad, sizes: tuple, dims: tuple, keepdim: bool):
    """Broadcast a reduced gradient back over `sizes` (undo the reduction's shape change)."""
    if not keepdim and sizes:
        # one unsqueeze per summed dim, lowest first, as PyTorch's sum_backward: a second
        # derivative through it is then SqueezeBackward1, the name PyTorch shows
        axes = dims if isinstance(dims, (tuple, list)) else (dims,)
        for d in sorted({d % len(sizes) for d in axes}):
            grad = grad.unsqueeze(d)
    return grad.expand(sizes)


def _expand_scalar(grad, sizes: tuple):
    """`grad.expand(sizes)` for the 0-d gradient of a full reduction: sizes is a shape, so
    there is nothing for the public expand to parse or check; Expand records it as before."""
    if grad._data.ndim:
        return grad.expand(sizes)
    return Expand.apply(grad, sizes)


def _whole(axis, shape: tuple) -> bool:
    """Whether summing over `axis` adds up every element (the dims left are all 1)."""
    axes = {a % len(shape) for a in (axis if isinstance(axis, (tuple, list)) else (axis,))}
    return not [n for d, n in enumerate(shape) if d not in axes and n != 1]   # (all() is ours)


def _sum_dtype(a: np.ndarray):
    return np.int64 if a.dtype.kind in "biu" else a.dtype


class Sum(Op):
    """out = sum of all elements"""
    grad_fn_name, name = "SumBackward0", "sum"
    jvp = "linear"
    saves = ("self_sym_sizes",)
    rule = "grad broadcast to self's shape"

    def forward(self):
        if _sum_order.applies(self):      # PyTorch's order of additions (its last bits)
            return _sum_order.cascade_sum(self)
        return as_array(self.sum(dtype=_sum_dtype(self)))

    def backward(ctx, grad):
        return (_expand_scalar(grad, ctx.self_sym_sizes),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield (make(shape),)


class SumDim(Op):
    """out = sum over `dim`"""
    grad_fn_name, name = "SumBackward1", "sum"
    jvp = "linear"
    saves = ("dim", "keepdim", "self_sym_sizes")
    rule = "grad broadcast back over the summed dims"

    def forward(self, dim, keepdim):
        axis = dim if self.ndim else None   # a 0-d tensor reduces over "dim 0" to itself
        if self.ndim and _sum_order.applies(self):
            if _whole(axis, self.shape):
                out = _sum_order.cascade_sum(self)      # every dim: PyTorch's full-sum order
                dims = {d % self.ndim for d in axis}
                return out.reshape(_keep_shape(self.shape, dims) if keepdim else
                                   [n for d, n in enumerate(self.shape) if d not in dims])
            out = _sum_order.dim_sum(self, axis, keepdim)   # PyTorch's order along dims
            if out is not None:
                return out
        return as_array(self.sum(axis=axis, keepdims=keepdim, dtype=_sum_dtype(self)))

    def backward(ctx, grad):
        return (_regrow(grad, ctx.self_sym_sizes, ctx.dim, ctx.keepdim),)

    @classmethod
    def sample_inputs(cls, make, shape):
        for keep in (False, True):
            yield make(shape), tuple(range(len(shape)))[-1:], keep


class Mean(Op):
    """out = mean of all elements"""
    grad_fn_name, name = "MeanBackward0", "mean"
    jvp = "linear"
    saves = ("self_sym_numel", "self_sym_sizes")
    rule = "grad / numel, broadcast to self's shape"

    def forward(self):
        if _sum_order.applies(self):      # PyTorch's mean: its sum, then one division
            return as_array(_sum_order.cascade_sum(self) / self.dtype.type(self.size))
        return as_array(self.mean(dtype=self.dtype))

    def backward(ctx, grad):
        return (_expand_scalar(grad / ctx.self_sym_numel, ctx.self_sym_sizes),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield (make(shape),)


class MeanDim(Op):
    """out = mean over `dim`"""
    grad_fn_name, name = "MeanBackward1", "mean"
    jvp = "linear"
    saves = ("dim", "keepdim", "self_sym_numel", "self_sym_sizes")
    rule = "grad / (count over dim), broadcast back"

    def forward(self, dim, keepdim):
        axis = dim if self.ndim else None
        if self.ndim and _sum_order.applies(self):   # PyTorch's mean: its sum, one division
            out = SumDim.forward(self, axis, keepdim)
            count = self.size // (out.size or 1)
            return as_array(out / self.dtype.type(count))
        return as_array(self.mean(axis=axis, keepdims=keepdim, dtype=self.dtype))

    def backward(ctx, grad):
        sizes = ctx.self_sym_sizes
        count = int(np.prod([sizes[d] for d in ctx.dim])) if sizes else 1
        return (_regrow(grad / count, sizes, ctx.dim, ctx.keepdim),)

    @classmethod
    def sample_inputs(cls, make, shape):
        for keep in (False, True):
            yield make(shape), tuple(range(len(shape)))[:1], keep


class _Extreme(Op):
    """Shared backward of max()/min() over all elements: ties share the gradient evenly."""
    saves = ("result", "self")

    def backward(ctx, grad):
        from .elementwise import where     # (imported here, as max() does)
        mask = (ctx.self == ctx.result)     # PyTorch: zeros, grad / count where the max is
        return (where(mask, grad / mask.sum(), new_tensor(np.zeros((), grad._data.dtype))),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield (make(shape),)


class Max(_Extreme):
    """out = largest element"""
    grad_fn_name, name, rule = "MaxBackward1", "max", "grad at the max (split on ties)"

    def forward(self):
        return as_array(self.max())


class Min(_Extreme):
    """out = smallest element"""
    grad_fn_name, name, rule = "MinBackward1", "min", "grad at the min (split on ties)"

    def forward(self):
        return as_array(self.min())


class _ExtremeDim(Op):
    """Shared backward of max(dim)/min(dim): the gradient goes to the chosen index."""
    saves = ("dim", "indices", "keepdim", "self_sym_sizes")
    forward_extras = ("indices",)

    @classmethod
    def apply(cls, self, dim, keepdim):
        vals, extras = cls.forward(self._data, dim, keepdim)
        out = cls._record((self,), vals, (self, dim, keepdim), extras)
        return cls.returns(out, extras[0])

    def backward(ctx, grad):
        sizes, dim = ctx.self_sym_sizes, ctx.dim
        idx = ctx.indices._data if ctx.keepdim else np.expand_dims(ctx.indices._data, dim)
        onehot = np.zeros(sizes, dtype=bool)
        np.put_along_axis(onehot, idx, True, axis=dim)
        g = grad if ctx.keepdim else grad.unsqueeze(dim)
        from .elementwise import where     # PyTorch scatters grad into +0.0 zeros
        return (where(new_tensor(onehot), g.expand(sizes),
                      new_tensor(np.zeros((), grad._data.dtype))),)

    @classmethod
    def sample_inputs(cls, make, shape):
        if shape:
            yield make(shape), 0, False
            yield make(shape), len(shape) - 1, True


class MaxDim(_ExtremeDim):
    """values, indices = largest along dim"""
    grad_fn_name, name, rule = "MaxBackward0", "max", "grad to the argmax position"
    returns = max_return

    def forward(self, dim, keepdim):
        idx = np.expand_dims(self.argmax(axis=dim), dim)
        vals = np.take_along_axis(self, idx, axis=dim)
        if not keepdim:
            vals, idx = vals.squeeze(dim), idx.squeeze(dim)
        return vals, (new_tensor(idx.astype(np.int64)),)


class MinDim(_ExtremeDim):
    """values, indices = smallest along dim"""
    grad_fn_name, name, rule = "MinBackward0", "min", "grad to the argmin position"
    returns = min_return

    def forward(self, dim, keepdim):
        idx = np.expand_dims(self.argmin(axis=dim), dim)
        vals = np.take_along_axis(self, idx, axis=dim)
        if not keepdim:
            vals, idx = vals.squeeze(dim), idx.squeeze(dim)
        return vals, (new_tensor(idx.astype(np.int64)),)


def _ones_seed(result: Tensor) -> Tensor:
    """A 0-d one expanded to result's shape: the seed of prod's forward formula."""
    return new_tensor(np.ones((), result._data.dtype)).expand(result._data.shape)


class Prod(Op):
    """out = product of all elements"""
    grad_fn_name, name = "ProdBackward0", "prod"
    saves = ("result", "self")
    rule = "grad * result / self"

    def forward(self):
        return as_array(self.prod(dtype=_sum_dtype(self)))

    def backward(ctx, grad):        # safe where self holds zeros (prod_grad.py)
        return (prod_backward(grad, ctx.self, ctx.result),)

    def jvp(ctx, self_t):           # PyTorch's: (backward of a ones seed * self_t).sum()
        return (prod_backward(_ones_seed(ctx.result), ctx.self, ctx.result) * self_t).sum()

    @classmethod
    def sample_inputs(cls, make, shape):
        yield (make(shape, 0.5, 1.5),)


class ProdDim(Op):
    """out = product along dim"""
    grad_fn_name, name = "ProdBackward1", "prod"
    saves = ("dim", "keepdim", "result", "self")
    rule = "grad * result / self"

    def forward(self, dim, keepdim):
        return as_array(self.prod(axis=dim, keepdims=keepdim, dtype=_sum_dtype(self)))

    def backward(ctx, grad):
        # dim wrapped, as PyTorch's prod_backward; safe where self holds zeros (prod_grad.py)
        return (prod_dim_backward(grad, ctx.self, ctx.result, int(ctx.dim), ctx.keepdim),)

    def jvp(ctx, self_t):           # PyTorch's: (backward of a ones seed * self_t).sum(dim)
        dim = dim_of(ctx.dim, ctx.self.ndim)
        seed = _ones_seed(ctx.result)
        return (prod_dim_backward(seed, ctx.self, ctx.result, dim, ctx.keepdim) *
                self_t).sum(dim, ctx.keepdim)

    @classmethod
    def sample_inputs(cls, make, shape):
        if shape:
            yield make(shape, 0.5, 1.5), 0, False


class Norm(Op):
    """out = (sum |self|**ord) ** (1/ord) over dim (all elements when dim is None)"""
    grad_fn_name, name = "LinalgVectorNormBackward0", "norm"
    saves = ("dim", "keepdim", "ord", "result", "self")
    rule = "grad * self * |self|**(ord-2) / result**(ord-1)"

    def forward(self, ord, dim, keepdim):
        a = np.abs(self)
        if ord == float("inf"):
            r = a.max(axis=dim, keepdims=keepdim)
        elif ord == 2 and _norm_order.applies(self):    # PyTorch's order (its last bits)
            r = _norm_order.norm2(self, dim, keepdim)
        elif ord == 2:
            r = np.sqrt((a * a).sum(axis=dim, keepdims=keepdim))
        else:
            r = (a ** ord).sum(axis=dim, keepdims=keepdim) ** (1.0 / ord)
        return as_array(r).astype(self.real.dtype)    # a complex tensor's norm is real

    def backward(ctx, grad):
        return (norm_backward(grad, ctx.self, ctx.ord, ctx.result, ctx.dim, ctx.keepdim),)

    def jvp(ctx, self_t):
        if ctx.ord != 2:    # the other orders' tangents come from the backward (double-vjp)
            return from_backward(Norm, ctx.inputs, (ctx.self, ctx.ord, ctx.dim, ctx.keepdim),
                                 ctx.result, None, (self_t,))
        # PyTorch's norm_jvp for ord 2: sum(self * self_t) / result, 0 where result is 0
        x, r = ctx.self, ctx.result
        dim = tuple(range(x.ndim)) if ctx.dim is None else ctx.dim
        return ((x * self_t).sum(dim, ctx.keepdim) / r).masked_fill(r == 0, 0)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape, 0.5, 2.0), 2, None, False
        if shape:
            yield make(shape, 0.5, 2.0), 3, (0,), True


def norm_backward(grad, x, p, r, dim=None, keepdim=False):
    """PyTorch's norm_backward: the gradient of `r`, the p-norm of `x` (over `dim`)."""
    if not keepdim and dim is not None and x.ndim:   # no dims: 0-d, it broadcasts
        for d in sorted(dims_of(dim, x.ndim)):          # PyTorch's unsqueeze_multiple
            r, grad = r.unsqueeze(d), grad.unsqueeze(d)
    if p == 2:      # PyTorch's norm_backward, its order of roundings and its nodes
        return grad * (x / r).masked_fill(r == 0, 0)
    if p == 1:
        return x.sgn() * grad
    if p == float("inf"):   # the gradient shared among the entries that reach the max
        a = x.abs()
        mask = (a == r) | a.isnan()
        dims = tuple(range(x.ndim)) if dim is None else dims_of(dim, x.ndim)
        return x.sgn() * ((grad / mask.sum(dims, keepdim=True)) * mask)
    if p < 1:
        scaled = x.sgn() * (x.abs() ** (p - 1)).masked_fill(x == 0, 0)
        return scaled * grad * r ** (1 - p)
    scale = (grad / r ** (p - 1)).masked_fill(r == 0, 0)
    return (x.sgn() * x.abs() ** (p - 1) if p < 2 else x * x.abs() ** (p - 2)) * scale


class Cumsum(Op):
    """out[i] = sum of self[..i] along dim"""
    grad_fn_name, name, saves = "CumsumBackward0", "cumsum", ("dim",)
    jvp = "linear"
    rule = "reverse cumulative sum of grad along dim"

    def forward(self, dim):
        if self.dtype == np.float32:    # PyTorch's CPU kernel accumulates floats in double
            return np.cumsum(self, axis=dim, dtype=np.float64).astype(np.float32)
        return np.cumsum(self, axis=dim, dtype=_sum_dtype(self))

    def backward(ctx, grad):
        return (grad.flip((ctx.dim,)).cumsum(ctx.dim).flip((ctx.dim,)),)

    @classmethod
    def sample_inputs(cls, make, shape):
        if shape:
            yield make(shape), 0


# ---- public entry points ------------------------------------------------------------------
@numpy_kwargs
def sum(input, dim=None, keepdim=False, *, dtype=None) -> Tensor:
    """Sum of all elements, or over `dim` (`torch.sum`)."""
    if dtype is not None:
        input = input.to(dtype)
    if dim is None:
        return Sum.apply(input)
    return SumDim.apply(input, dims_of(dim, input.ndim), keepdim)


@numpy_kwargs
def mean(input, dim=None, keepdim=False, *, dtype=None) -> Tensor:
    """Mean of all elements, or over `dim` (`torch.mean`); floating tensors only."""
    if dtype is not None:
        input = input.to(dtype)
    if input._data.dtype.kind not in "fc":
        # PyTorch names the dtype= argument when one was given (even for a float input)
        which = "Input" if dtype is None else "Optional"
        raise RuntimeError(f"mean(): could not infer output dtype. {which} dtype must be either "
                           "a floating point or complex dtype. Got: "
                           + input.dtype.legacy.replace("Tensor", ""))
    if dim is None:
        return Mean.apply(input)
    return MeanDim.apply(input, dims_of(dim, input.ndim), keepdim)


def _extreme(full, by_dim, other_op, input, dim, keepdim):
    if isinstance(dim, Tensor):
        return other_op(input, dim)
    if dim is None:
        refuse(full.name + "_all", input)
        if input._data.size == 0:
            raise RuntimeError(f"{full.name}(): Expected reduction dim to be specified for "
                               "input.numel() == 0. Specify the reduction dim with the 'dim' "
                               "argument.")
        return full.apply(input)
    d = dim_of(dim, input.ndim)
    if not input.ndim:
        return by_dim.returns(input.clone(), new_tensor(np.array(0)))
    return by_dim.apply(input, d, keepdim)


@numpy_kwargs
def max(input, dim=None, keepdim=False):
    """Largest element; with `dim`, (values, indices); with a tensor, elementwise maximum."""
    from .clamping import maximum
    return _extreme(Max, MaxDim, maximum, input, dim, keepdim)


@numpy_kwargs
def min(input, dim=None, keepdim=False):
    """Smallest element; with `dim`, (values, indices); with a tensor, elementwise minimum."""
    from .clamping import minimum
    return _extreme(Min, MinDim, minimum, input, dim, keepdim)


@numpy_kwargs
def prod(input, dim=None, keepdim=False, *, dtype=None) -> Tensor:
    if dim is None:
        return Prod.apply(input)
    return ProdDim.apply(input, dim_of(dim, input.ndim), keepdim)


def norm(input, p=2, dim=None, keepdim=False) -> Tensor:
    """Vector p-norm over all elements or `dim` (`torch.norm` / `linalg.vector_norm`)."""
    if p == "fro":
        p = 2
    d = None if dim is None else dims_of(dim, input.ndim)
    return Norm.apply(input, p, d, keepdim)


def vector_norm(x, ord=2, dim=None, keepdim=False) -> Tensor:
    """`torch.linalg.vector_norm`: the ord-norm of x flattened, or along `dim`."""
    return norm(x, ord, dim, keepdim)


def cumsum(input, dim, *, dtype=None) -> Tensor:
    return Cumsum.apply(input, dim_of(dim, input.ndim))


@numpy_kwargs
def argmax(input, dim=None, keepdim=False) -> Tensor:
    a = input._data
    if dim is None:
        return new_tensor(np.array(a.argmax(), dtype=np.int64))
    r = a.argmax(axis=dim)
    return new_tensor(np.expand_dims(r, dim) if keepdim else as_array(r))


@numpy_kwargs
def argmin(input, dim=None, keepdim=False) -> Tensor:
    a = input._data
    if dim is None:
        return new_tensor(np.array(a.argmin(), dtype=np.int64))
    r = a.argmin(axis=dim)
    return new_tensor(np.expand_dims(r, dim) if keepdim else as_array(r))


def all(input, dim=None) -> Tensor:
    return new_tensor(as_array(input._data.all(axis=dim)))


def any(input, dim=None) -> Tensor:
    return new_tensor(as_array(input._data.any(axis=dim)))


# softmax, log_softmax, var and std live in stats.py; re-exported for callers that import them
# from here (stats imports this module first, so the names above already exist)
from .stats import log_softmax, softmax, std, var  # noqa: E402,F401
