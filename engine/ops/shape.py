"""Shape ops: views (view/reshape, transpose, permute, squeeze, unsqueeze, expand), clone,
flip, repeat, masked_fill and dtype casts.

PyTorch counterparts: `Tensor.view`, `torch.transpose`, `torch.permute`, `Tensor.expand`,
`Tensor.to`. View outputs share storage and the version counter with their input. Indexing is
in `indexing.py`; cat/stack/split in `join.py`.
"""
from __future__ import annotations

import numpy as np

from .. import _events, messages
from ..grad_mode import state as _grad_state
from ..tensor import Tensor, new_tensor
from ._broadcast import sum_to
from ._op import Op
from .._dual import tangents
from ._dims import dim_of, dims_in_order


def _shape_arg(shape) -> tuple:
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = shape[0]
    return tuple(int(s) for s in shape)


def stretched(a: np.ndarray, shape: tuple) -> np.ndarray:
    """`np.broadcast_to(a, shape)` (a read-only view, stride 0 along new and stretched dims)
    for a shape the caller has checked.

    A C-contiguous `a`, the usual case (a gradient expanded back by MeanBackward0 or
    SumBackward0), gets the view from the ndarray constructor directly: broadcast_to's Python
    layers cost about three times the view itself for a learner-sized tensor.

    Example:
        >>> stretched(np.array([1.0, 2.0]), (2, 2)).strides
        (0, 8)
    """
    if not a.ndim:      # a full reduction's gradient: every stride is 0
        strides = (0,) * len(shape)
    elif not a.flags.c_contiguous or not a.size:
        return np.broadcast_to(a, shape)
    else:
        lead = len(shape) - a.ndim
        strides = (0,) * lead + tuple(0 if n == 1 else s for n, s in zip(a.shape, a.strides))
    out = np.ndarray(shape, a.dtype, a, 0, strides)
    out.flags.writeable = False
    return out


class View(Op):
    """out = self with a new shape (same elements, same order)"""
    grad_fn_name, name, is_view = "ViewBackward0", "view", True
    jvp = "linear"
    saves = ("self_sym_sizes",)
    rule = "grad reshaped back to self's shape"

    def forward(self, shape):
        return self.reshape(shape)

    @staticmethod
    def forward_error(arrays, params, error):
        shape = list(params[0])
        if shape.count(-1) > 1:
            return RuntimeError("only one dimension can be inferred")
        for i, n in enumerate(shape):
            if n < -1:
                return RuntimeError(f"invalid shape dimension {n} at index {i} of shape {shape}")
        return RuntimeError(f"shape '{shape}' is invalid for input of size {arrays[0].size}")

    def backward(ctx, grad):
        return (grad.reshape(ctx.self_sym_sizes),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), (-1,)


class UnsafeView(View):
    """out = self reshaped (what matmul uses to fold batch dimensions back)"""
    grad_fn_name, name = "UnsafeViewBackward0", "_unsafe_view"


class ReshapeAlias(View):
    """out = self reshaped as a view of a non-contiguous tensor (PyTorch's _reshape_alias)"""
    grad_fn_name, name = "ReshapeAliasBackward0", "_reshape_alias"


class Transpose(Op):
    """out = self with dims dim0 and dim1 swapped"""
    grad_fn_name, name, is_view = "TransposeBackward0", "transpose", True
    jvp = "linear"
    saves = ("dim0", "dim1")
    rule = "grad transposed back"

    def forward(self, dim0, dim1):
        return self.swapaxes(dim0, dim1)

    def backward(ctx, grad):
        return (grad.transpose(ctx.dim0, ctx.dim1),)

    @classmethod
    def sample_inputs(cls, make, shape):
        if len(shape) >= 2:
            yield make(shape), 0, 1


class TransposeInplace(Transpose):
    """out = self with dims dim0 and dim1 swapped, as `transpose_` records it; the engine
    uses it where PyTorch's kernels transpose a fresh result of their own in place (the
    recurrent layers' batch_first output), so the copy is never seen"""
    grad_fn_name, name, is_view = "TransposeBackward1", "transpose_", False

    def forward(self, dim0, dim1):
        return self.swapaxes(dim0, dim1)     # strided as PyTorch's: not contiguous


class T(Op):
    """out = self transposed (2-D; 0-D and 1-D unchanged)"""
    grad_fn_name, name, is_view = "TBackward0", "t", True
    jvp = "linear"
    rule = "grad transposed back"

    def forward(self):
        return self.T

    def backward(ctx, grad):
        return (T.apply(grad),)     # grad.t(), without two wrappers (grad is at most 2-D)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield (make(shape[:2]),)


class Permute(Op):
    """out = self with dimensions reordered by dims"""
    grad_fn_name, name, is_view = "PermuteBackward0", "permute", True
    jvp = "linear"
    saves = ("dims",)
    rule = "grad permuted back"

    def forward(self, dims):
        return self.transpose(dims)

    def backward(ctx, grad):
        return (grad.permute(tuple(np.argsort(ctx.dims).tolist())),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), tuple(reversed(range(len(shape))))


class Squeeze(Op):
    """out = self without its size-1 dimensions"""
    grad_fn_name, name, is_view = "SqueezeBackward0", "squeeze", True
    jvp = "linear"
    saves = ("self_sym_sizes",)
    rule = "grad reshaped back to self's shape"

    def forward(self):
        return self.squeeze()

    def backward(ctx, grad):
        return (grad.reshape(ctx.self_sym_sizes),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield (make((1,) + tuple(shape)),)


class SqueezeDim(Op):
    """out = self without dimension dim, if it has size 1"""
    grad_fn_name, name, is_view = "SqueezeBackward1", "squeeze", True
    jvp = "linear"
    saves = ("dim", "self_sym_sizes")
    rule = "grad reshaped back to self's shape"

    def forward(self, dim):
        return self.squeeze(dim) if self.ndim and self.shape[dim] == 1 else self.view()

    def backward(ctx, grad):
        return (grad.reshape(ctx.self_sym_sizes),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make((1,) + tuple(shape)), 0


class SqueezeDims(Op):
    """out = self without those of the dims (a tuple) that have size 1"""
    grad_fn_name, name, is_view = "SqueezeBackward2", "squeeze", True
    jvp = "linear"
    saves = ("dim", "self_sym_sizes")
    rule = "grad reshaped back to self's shape"

    def forward(self, dim):
        ones = tuple(d for d in dim if self.ndim and self.shape[d] == 1)
        return self.squeeze(ones) if ones else self.view()

    def backward(ctx, grad):
        return (grad.reshape(ctx.self_sym_sizes),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make((1,) + tuple(shape) + (1,)), (0, len(shape) + 1)


class MatmulSqueeze(SqueezeDim):
    """out = self without dimension dim (matmul's squeeze of a vector operand's result)"""
    grad_fn_name = "SqueezeBackward4"


class Unsqueeze(Op):
    """out = self with a new size-1 dimension at dim"""
    grad_fn_name, name, is_view = "UnsqueezeBackward0", "unsqueeze", True
    jvp = "linear"
    saves = ("dim",)
    rule = "grad with dim squeezed away"

    def forward(self, dim):
        return np.expand_dims(self, dim)

    def backward(ctx, grad):
        return (grad.squeeze(ctx.dim),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), 0


class Expand(Op):
    """out = self broadcast to a larger shape (no copy)"""
    grad_fn_name, name, is_view = "ExpandBackward0", "expand", True
    jvp = "linear"
    saves = ("self_sym_sizes",)
    rule = "grad summed over the expanded dims"

    def forward(self, shape):
        return stretched(self, shape)

    def backward(ctx, grad):
        return (sum_to(grad, ctx.self_sym_sizes),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), (2,) + tuple(shape)


class Clone(Op):
    """out = a copy of self"""
    grad_fn_name, name, rule = "CloneBackward0", "clone", "grad"
    jvp = "linear"

    def forward(self):
        return self.copy()

    def backward(ctx, grad):
        return (grad,)

    sample_inputs = classmethod(lambda cls, make, shape: iter([(make(shape),)]))


class ToCopy(Op):
    """out = self converted to another dtype"""
    grad_fn_name, name = "ToCopyBackward0", "to"
    jvp = "linear"
    saves = ("_self_dtype",)
    rule = "grad converted back to self's dtype"

    forward_params = ("self", "np_dtype", "_self_dtype")

    def forward(self, np_dtype, _self_dtype=None):
        return (self.real if np.dtype(np_dtype).kind != "c" else self).astype(np_dtype)

    def backward(ctx, grad):
        if grad._data.dtype.kind == "c" and not ctx._self_dtype.is_complex:
            grad = grad.real     # a real input gets the real part, without a warning
        return (grad.to(ctx._self_dtype),)

    @classmethod
    def sample_inputs(cls, make, shape):
        from .. import dtypes
        yield make(shape), np.float64, dtypes.float64


class Flip(Op):
    """out = self reversed along dims"""
    grad_fn_name, name, saves, rule = "FlipBackward0", "flip", ("dims",), "grad flipped back"
    jvp = "linear"

    def forward(self, dims):
        return np.flip(self, dims).copy()

    def backward(ctx, grad):
        return (grad.flip(ctx.dims),)

    @classmethod
    def sample_inputs(cls, make, shape):
        if shape:
            yield make(shape), (0,)


class MaskedFill(Op):
    """out = self with value where mask is True"""
    grad_fn_name, name, saves = "MaskedFillBackward0", "masked_fill", ("mask",)
    rule = "grad where mask is False, else 0"

    def forward(self, mask, value):
        return np.where(mask._data, np.asarray(value, dtype=self.dtype), self)

    def backward(ctx, grad):
        return (grad.masked_fill(ctx.mask, 0),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), new_tensor(np.random.default_rng(1).random(shape) > 0.5), 0.0


class Repeat(Op):
    """out = self tiled `repeats` times along each dimension"""
    grad_fn_name, name = "RepeatBackward0", "repeat"
    jvp = "linear"
    saves = ("repeats", "self_sym_sizes")
    rule = "grad summed over the tiles"

    def forward(self, repeats):
        return np.tile(self, repeats)

    def backward(ctx, grad):
        sizes, reps = ctx.self_sym_sizes, ctx.repeats
        lead = len(reps) - len(sizes)
        full = (1,) * lead + tuple(sizes)
        pairs = []      # each dim as (repeat, size), so the repeats can be summed away
        for r, n in zip(reps, full):
            pairs += [r, n]
        g = grad.reshape(tuple(pairs)).sum(tuple(range(0, 2 * len(reps), 2)))
        return (g.reshape(sizes),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), (2,) * len(shape) if shape else (2,)


# ---- public entry points ------------------------------------------------------------------
def _dim(d: int, ndim: int) -> int:
    return dim_of(d, ndim)


def _new_shape(shape) -> tuple:
    """The sizes given to view/reshape; sizes below -1 are refused before anything else, as
    PyTorch does (numpy would read any negative size as "infer")."""
    shape = _shape_arg(shape)
    if shape and min(shape) < -1:
        i = next(i for i, n in enumerate(shape) if n < -1)
        raise RuntimeError(f"invalid shape dimension {shape[i]} at index {i} of shape "
                           f"{list(shape)}")
    return shape


def view(t: Tensor, *shape) -> Tensor:
    """Same elements, new shape; one -1 is inferred (`Tensor.view`)."""
    if len(shape) == 1 and not isinstance(shape[0], (int, np.integer)) and not isinstance(
            shape[0], (tuple, list)):
        from .. import dtypes
        if isinstance(shape[0], dtypes.dtype):
            return to(t, shape[0])
    shape = _new_shape(shape)
    if not _without_copy(t._data, shape):
        raise RuntimeError(messages.VIEW_STRIDES)
    return View.apply(t, shape)


def reshape(t: Tensor, *shape) -> Tensor:
    """A view when the strides allow one (ViewBackward0, or ReshapeAliasBackward0 for a
    non-contiguous input), else a copy (CloneBackward0 + UnsafeViewBackward0)."""
    shape = _new_shape(shape)
    if _without_copy(t._data, shape):
        return View.apply(t, shape) if t._data.flags.c_contiguous else ReshapeAlias.apply(t, shape)
    return UnsafeView.apply(Clone.apply(t), shape)


def _without_copy(a: np.ndarray, shape: tuple) -> bool:
    """Whether `a` can take `shape` as a view (numpy's rule matches PyTorch's stride rule).
    An impossible shape answers True, so that View reports PyTorch's size error."""
    v = a.view()
    try:
        v.shape = shape
    except AttributeError:
        return False
    except ValueError:
        return True
    return True


def flatten(t: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    if t.ndim == 0:
        return View.apply(t, (1,))
    s, e = _dim(start_dim, t.ndim), _dim(end_dim, t.ndim)
    if s == e:
        return t
    shape = t._data.shape
    return reshape(t, shape[:s] + (-1,) + shape[e + 1:])


def squeeze(t: Tensor, dim=None) -> Tensor:
    if dim is None:
        return Squeeze.apply(t)
    if isinstance(dim, (tuple, list)):     # several dims at once (PyTorch 2.0)
        dims = dims_in_order(tuple(dim), t.ndim)
        for i, d in enumerate(dims):
            if d in dims[:i]:
                raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
        return SqueezeDims.apply(t, dims)
    return SqueezeDim.apply(t, _dim(dim, t.ndim))


def unsqueeze(t: Tensor, dim: int) -> Tensor:
    return Unsqueeze.apply(t, _dim(dim, t.ndim + 1))


def transpose(t: Tensor, dim0: int, dim1: int) -> Tensor:
    return Transpose.apply(t, _dim(dim0, t.ndim), _dim(dim1, t.ndim))


def t(x: Tensor) -> Tensor:
    if x.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {x.ndim}D")
    return T.apply(x)


def permute(x: Tensor, *dims) -> Tensor:
    dims = _shape_arg(dims)
    if len(dims) != x.ndim:
        raise RuntimeError("permute(sparse_coo): number of dimensions in the tensor input does "
                           "not match the length of the desired ordering of dimensions i.e. "
                           f"input.dim() = {x.ndim} is not equal to len(dims) = {len(dims)}")
    order = dims_in_order(dims, x.ndim)
    if len(set(order)) != len(order):
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    return Permute.apply(x, order)


def numpy_T(x: Tensor) -> Tensor:  # PyTorch's name
    """`x.T`: the dims reversed (with a warning, once, for other than 2-D)."""
    if x.ndim != 2:
        messages.warn_once(messages.T_ZERO_D if x.ndim == 0 else messages.T_NOT_2D)
    return permute(x, tuple(reversed(range(x.ndim))))


def expand(x: Tensor, *sizes) -> Tensor:
    sizes = _shape_arg(sizes)
    old = x._data.shape
    if len(sizes) < len(old):
        raise RuntimeError(f"expand({x.type()}{{{list(old)}}}, size={list(sizes)}): the number "
                           f"of sizes provided ({len(sizes)}) must be greater or equal to the "
                           f"number of dimensions in the tensor ({len(old)})")
    lead = len(sizes) - len(old)
    full = tuple(old[i - lead] if n == -1 else n for i, n in enumerate(sizes))
    for i, n in enumerate(old):
        if n != 1 and n != full[lead + i]:
            raise RuntimeError(
                f"The expanded size of the tensor ({full[lead + i]}) must match the existing "
                f"size ({n}) at non-singleton dimension {lead + i}.  Target sizes: "
                f"{list(sizes)}.  Tensor sizes: {list(old)}")
    return Expand.apply(x, full)


def repeat(x: Tensor, *sizes) -> Tensor:
    sizes = _shape_arg(sizes)
    if len(sizes) < x.ndim:     # numpy's tile would pad them; PyTorch refuses
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number "
                           "of dimensions of tensor")
    return Repeat.apply(x, sizes)


def flip(x: Tensor, dims) -> Tensor:
    return Flip.apply(x, dims_in_order(dims, x.ndim))


def narrow(x: Tensor, dim: int, start: int, length: int) -> Tensor:
    from .indexing import Slice
    d = _dim(dim, x.ndim)
    if start < 0:       # PyTorch wraps a negative start before slicing (and saves it so)
        start += x._data.shape[d]
    return Slice.apply(x, d, start, start + length, 1)


def select(x: Tensor, dim: int, index: int) -> Tensor:
    from .indexing import Select
    return Select.apply(x, _dim(dim, x.ndim), index)


def broadcast_shapes(*shapes):
    """The shape the given shapes broadcast to (`torch.broadcast_shapes`), as a torch.Size."""
    from ..size import Size
    out: list = []
    for i, shape in enumerate(shapes):
        shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
        for k in range(1, len(shape) + 1):
            n = shape[-k]
            if k > len(out):
                out.insert(0, n)
            elif out[-k] == 1:
                out[-k] = n
            elif n != 1 and n != out[-k]:
                raise RuntimeError(
                    f"Attempting to broadcast a dimension of length {n} at {-k}! Mismatching "
                    f"argument at index {i} had {shape}; but expected shape should be "
                    f"broadcastable to {out}")
    return Size(out)


def broadcast_tensors(*tensors) -> tuple:
    """Expand every tensor to their common shape (`torch.broadcast_tensors`); a tensor that
    already has it comes back as it is, as PyTorch's."""
    shape = tensors[0]._data.shape if tensors else ()
    for t in tensors[1:]:
        problem = messages.size_mismatch(shape, t._data.shape)
        if problem:
            raise RuntimeError(problem)
        shape = np.broadcast_shapes(shape, t._data.shape)
    return tuple(t if t._data.shape == shape else expand(t, shape) for t in tensors)


def clone(x: Tensor, *, memory_format=None) -> Tensor:
    return Clone.apply(x)


def to(x: Tensor, *args, **kwargs) -> Tensor:
    """Convert the dtype (`Tensor.to`); devices other than the CPU are not available."""
    from .. import dtypes
    from ..device import is_device_spec, place
    target = kwargs.get("dtype")
    place(kwargs.get("device"))
    for a in args:
        if isinstance(a, dtypes.dtype):
            target = a
        elif isinstance(a, Tensor):
            target = a.dtype
        elif is_device_spec(a) or isinstance(a, int):
            place(a)
    if target is None or target.np == x._data.dtype:
        return x
    data = x._data
    if data.dtype.kind == "c" and not target.is_complex:
        messages.warn("Casting complex values to real discards the imaginary part")
        data = data.real
    if (target.is_floating_point or target.is_complex) and (x._rg or x._uid in tangents):
        return ToCopy.apply(x, target.np, x.dtype)      # (tangents: a dual)
    out = new_tensor(data.astype(target.np))
    if _events.listener is not None and not _grad_state.quiet:
        _events.listener.on_op("to", (x,), out, None)
    return out


# cat/stack/split/chunk/unbind live in join.py; re-exported for callers importing them from here
from .join import cat, chunk, split, stack, unbind  # noqa: E402,F401
