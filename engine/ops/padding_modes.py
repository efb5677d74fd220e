"""Reflection and replication padding: what `F.pad(mode="reflect" | "replicate")` records.

PyTorch counterparts: `torch._C._nn.reflection_pad{1,2,3}d` and `replication_pad{1,2,3}d`
(`ReflectionPad1DBackward0` ... `ReplicationPad3DBackward0`). `padding` lists (before, after)
pairs starting from the last dimension, as `F.pad` does; negative amounts crop (the node keeps
them as unsigned 64-bit integers, as PyTorch's does). Each output
position copies one input position (`_source_index`), so the backward adds the gradient back
where it came from; that backward is an op of its own (`...BackwardBackward0` under
`create_graph=True`), whose derivative is the padding again.
"""
from __future__ import annotations

import numpy as np

from ..tensor import Tensor, new_tensor
from ._op import Op
from .padding import _signed, _unsigned


def _source_index(n: int, lo: int, hi: int, mode: str) -> np.ndarray:
    """For each output position along one dimension of size n, the input position it copies:
    PyTorch's kernels mirror (reflect, the edge itself not repeated) or clamp (replicate)
    around the uncropped input, then shift by what a negative amount crops."""
    j = np.arange(n + lo + hi)
    if mode == "reflect":
        ix = np.where(j < lo, 2 * lo - j, np.where(j < n + lo, j, 2 * (n + lo - 1) - j))
    else:
        ix = np.clip(j, lo, n + lo - 1)
    return ix - max(lo, 0) + max(-lo, 0)


def _mesh(shape: tuple, padding: tuple, mode: str) -> tuple:
    """An index for the padded array: every padded dimension's `_source_index`, open mesh."""
    padding, k = _signed(padding), len(padding) // 2
    lead = len(shape) - k
    axes = [_source_index(shape[lead + i], padding[2 * (k - 1 - i)],
                          padding[2 * (k - 1 - i) + 1], mode) for i in range(k)]
    return (slice(None),) * lead + np.ix_(*axes)


def _pad(x: np.ndarray, padding: tuple, mode: str) -> np.ndarray:
    return x[_mesh(x.shape, padding, mode)]


def _unpad(g: np.ndarray, like: np.ndarray, padding: tuple, mode: str) -> np.ndarray:
    """The padding's adjoint: each gradient entry added to the input position it copied, in
    output order, as PyTorch's backward kernels add them."""
    out = np.zeros(like.shape, dtype=g.dtype)
    np.add.at(out, _mesh(like.shape, padding, mode), g)
    return out


class _ModePad(Op):
    """Base of the six padding ops; a subclass names its node and mode in its forward."""
    saves = ("padding", "self")
    rule = "grad added back to the input positions each output copied"
    dims = 1
    Backward: type = None       # the derivative's op, set with the classes below

    def backward(ctx, grad):
        return (type(ctx)._op.Backward.apply(grad, ctx.self, ctx.padding),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make((1,) + (3,) * cls.dims), _unsigned((2, 1, 0, 1, -1, 2)[:2 * cls.dims])


class _ModePadBackward(Op):
    """Base of the padding backwards as ops (their node is what create_graph records)."""
    n_inputs, promotes, saves = 2, False, ("padding", "self_sym_sizes")
    rule = "the padding of grad (to grad_output), zeros (to self)"
    Forward: type = None

    def backward(ctx, grad):       # derivatives.yaml: grad_output: pad(grad); self: zeros
        a, b = ctx.needs_input_grad
        zeros = new_tensor(np.zeros(ctx.self_sym_sizes, dtype=grad._data.dtype))
        return (type(ctx)._op.Forward.apply(grad, ctx.padding) if a else None,
                zeros if b else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        for x, pad in cls.Forward.sample_inputs(make, shape):
            yield make(cls.Forward.apply(x, pad).shape), x.detach(), pad


class ReflectionPad1D(_ModePad):
    """out = self mirrored at both ends of the last dimension (edges not repeated)"""
    grad_fn_name, name, dims = "ReflectionPad1DBackward0", "reflection_pad1d", 1

    def forward(self, padding):
        return _pad(self, padding, "reflect")


class ReflectionPad2D(_ModePad):
    """out = self mirrored at both ends of the last two dimensions"""
    grad_fn_name, name, dims = "ReflectionPad2DBackward0", "reflection_pad2d", 2

    def forward(self, padding):
        return _pad(self, padding, "reflect")


class ReflectionPad3D(_ModePad):
    """out = self mirrored at both ends of the last three dimensions"""
    grad_fn_name, name, dims = "ReflectionPad3DBackward0", "reflection_pad3d", 3

    def forward(self, padding):
        return _pad(self, padding, "reflect")


class ReplicationPad1D(_ModePad):
    """out = self with its edge values repeated at both ends of the last dimension"""
    grad_fn_name, name, dims = "ReplicationPad1DBackward0", "replication_pad1d", 1

    def forward(self, padding):
        return _pad(self, padding, "replicate")


class ReplicationPad2D(_ModePad):
    """out = self with its edge values repeated around the last two dimensions"""
    grad_fn_name, name, dims = "ReplicationPad2DBackward0", "replication_pad2d", 2

    def forward(self, padding):
        return _pad(self, padding, "replicate")


class ReplicationPad3D(_ModePad):
    """out = self with its edge values repeated around the last three dimensions"""
    grad_fn_name, name, dims = "ReplicationPad3DBackward0", "replication_pad3d", 3

    def forward(self, padding):
        return _pad(self, padding, "replicate")


class ReflectionPad1DBackward(_ModePadBackward):
    """out = grad_output folded back onto self's shape (reflection_pad1d_backward)"""
    grad_fn_name, name = "ReflectionPad1DBackwardBackward0", "reflection_pad1d_backward"

    def forward(grad_output, self, padding):
        return _unpad(grad_output, self, padding, "reflect")


class ReflectionPad2DBackward(_ModePadBackward):
    """out = grad_output folded back onto self's shape (reflection_pad2d_backward)"""
    grad_fn_name, name = "ReflectionPad2DBackwardBackward0", "reflection_pad2d_backward"

    def forward(grad_output, self, padding):
        return _unpad(grad_output, self, padding, "reflect")


class ReflectionPad3DBackward(_ModePadBackward):
    """out = grad_output folded back onto self's shape (reflection_pad3d_backward)"""
    grad_fn_name, name = "ReflectionPad3DBackwardBackward0", "reflection_pad3d_backward"

    def forward(grad_output, self, padding):
        return _unpad(grad_output, self, padding, "reflect")


class ReplicationPad1DBackward(_ModePadBackward):
    """out = grad_output summed back onto self's shape (replication_pad1d_backward)"""
    grad_fn_name, name = "ReplicationPad1DBackwardBackward0", "replication_pad1d_backward"

    def forward(grad_output, self, padding):
        return _unpad(grad_output, self, padding, "replicate")


class ReplicationPad2DBackward(_ModePadBackward):
    """out = grad_output summed back onto self's shape (replication_pad2d_backward)"""
    grad_fn_name, name = "ReplicationPad2DBackwardBackward0", "replication_pad2d_backward"

    def forward(grad_output, self, padding):
        return _unpad(grad_output, self, padding, "replicate")


class ReplicationPad3DBackward(_ModePadBackward):
    """out = grad_output summed back onto self's shape (replication_pad3d_backward)"""
    grad_fn_name, name = "ReplicationPad3DBackwardBackward0", "replication_pad3d_backward"

    def forward(grad_output, self, padding):
        return _unpad(grad_output, self, padding, "replicate")


# each padding op with its backward op, by (mode, number of padded dimensions)
OPS = {("reflect", 1): (ReflectionPad1D, ReflectionPad1DBackward),
       ("reflect", 2): (ReflectionPad2D, ReflectionPad2DBackward),
       ("reflect", 3): (ReflectionPad3D, ReflectionPad3DBackward),
       ("replicate", 1): (ReplicationPad1D, ReplicationPad1DBackward),
       ("replicate", 2): (ReplicationPad2D, ReplicationPad2DBackward),
       ("replicate", 3): (ReplicationPad3D, ReplicationPad3DBackward)}
for _fwd, _bwd in OPS.values():
    _fwd.Backward, _bwd.Forward = _bwd, _fwd


def mode_pad(input: Tensor, padding: tuple, mode: str) -> Tensor:
    """`input` padded by `mode` ("reflect" or "replicate") in its last len(padding) // 2
    dimensions, after PyTorch's checks (F.pad has checked the sizes against the dimensions).

    Example:
        >>> import gradstep.engine as torch
        >>> mode_pad(torch.tensor([[1., 2., 3.]]), (1, 2), "replicate").tolist()
        [[1.0, 1.0, 2.0, 3.0, 3.0, 3.0]]
    """
    k, shape, nd = len(padding) // 2, input._data.shape, input.ndim
    fwd = OPS[mode, k][0]
    if input._data.dtype.kind == "b":
        kernel = f"{'reflection' if mode == 'reflect' else 'replication'}_pad{k}d"
        raise NotImplementedError(f'"{kernel}" not implemented for \'Bool\'')
    if 0 in shape[1:]:      # the first (batch) dimension alone may be empty
        raise RuntimeError(f"Expected {k + 1}D or {k + 2}D (batch mode) tensor with possibly 0 "
                           "batch size and other non-zero dimensions for input, but got: "
                           f"{list(shape)}")
    if k == 1 and shape[-1] + padding[0] + padding[1] < 1:
        raise RuntimeError(f"input (W: {shape[-1]}) is too small. Calculated output W: "
                           f"{shape[-1] + padding[0] + padding[1]}")
    for i in range(k if mode == "reflect" else 0):
        lo, hi, size = padding[2 * i], padding[2 * i + 1], shape[nd - 1 - i]
        if lo >= size or hi >= size:
            raise RuntimeError(f"Argument #{4 + 2 * i}: Padding size should be less than the "
                               "corresponding input dimension, but got: padding "
                               f"({lo}, {hi}) at dimension {nd - 1 - i} of input "
                               f"{list(shape)}")
    return fwd.apply(input, _unsigned(padding))     # kept unsigned, as constant_pad_nd's
