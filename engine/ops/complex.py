"""Complex numbers: building them, taking them apart, and their conjugate.

PyTorch counterparts: `torch.complex`, `torch.polar`, `torch.view_as_real`,
`torch.view_as_complex`, `Tensor.real`/`.imag`, `torch.conj`, `torch.angle`.

NOTE [complex gradients]: PyTorch hands back, for a real loss L of a complex z = x + iy, the
gradient dL/dx + i dL/dy (twice the conjugate Wirtinger derivative). In that convention a
holomorphic op's backward multiplies by the *conjugate* of its derivative: mul's is
grad * other.conj(), exp's grad * result.conj(). The backwards of such ops call `conj` below,
which is the tensor itself for real tensors, so real graphs are unchanged. Where a real input
meets a complex gradient (x * z with x real), only its real part reaches x: the autograd walk
takes it for each edge `_op.mark_real_inputs` recorded (PyTorch's engine does it in
validate_outputs).
"""
from __future__ import annotations

import numpy as np

from .. import messages
from ..tensor import Tensor, new_tensor
from ._broadcast import records_nothing, sum_to
from ._exact import via64
from ._op import Op


def conj(input: Tensor) -> Tensor:
    """The complex conjugate (`torch.conj`); a real tensor is returned as it is."""
    if input._data.dtype.kind != "c":
        return input
    return Conj.apply(input)


def _real_of(g: Tensor) -> Tensor:
    # under create_graph the part is taken with recorded ops, so it stays differentiable
    if records_nothing():
        return new_tensor(np.ascontiguousarray(g._data.real))
    return real(g)


class Conj(Op):
    """out = conj(self)"""
    grad_fn_name, name = "ConjBackward0", "conj"
    jvp = "linear"
    rule = "conj(grad)"

    def forward(self):
        return np.conj(self)

    def backward(ctx, grad):
        return (conj(grad),)

    sample_inputs = classmethod(lambda cls, make, shape: ((complex_leaf(make, shape),),))


class ViewAsReal(Op):
    """out[..., 0] = self.real, out[..., 1] = self.imag (a view)"""
    grad_fn_name, name, is_view = "ViewAsRealBackward0", "view_as_real", True
    jvp = "linear"
    rule = "view_as_complex(grad)"

    def forward(self):
        part = self.real        # numpy's strided view of the real parts
        step = part.itemsize
        return np.lib.stride_tricks.as_strided(part, self.shape + (2,), part.strides + (step,),
                                               writeable=self.flags.writeable)

    def backward(ctx, grad):
        return (view_as_complex(grad.contiguous()),)

    sample_inputs = classmethod(lambda cls, make, shape: ((complex_leaf(make, shape),),))


class ViewAsComplex(Op):
    """out = self[..., 0] + i self[..., 1] (a view)"""
    grad_fn_name, name, is_view = "ViewAsComplexBackward0", "view_as_complex", True
    jvp = "linear"
    rule = "view_as_real(grad)"

    def forward(self):
        return self.view(np.complex64 if self.dtype == np.float32 else np.complex128)[..., 0]

    def backward(ctx, grad):
        return (view_as_real(grad),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield (make(tuple(shape) + (2,)),)


class Complex(Op):
    """out = real + i imag"""
    grad_fn_name, name, n_inputs = "ComplexBackward0", "complex", 2
    jvp = "linear"
    saves = ("_real_sym_sizes", "_imag_sym_sizes")
    rule = "real(grad), imag(grad)"
    promotes = False

    def forward(real, imag):
        out = np.empty(np.broadcast_shapes(real.shape, imag.shape),
                       np.complex64 if real.dtype == np.float32 else np.complex128)
        out.real, out.imag = real, imag
        return out

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        return (sum_to(_real_of(grad), ctx._real_sym_sizes) if a else None,
                sum_to(imag(grad), ctx._imag_sym_sizes) if b else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), make(shape)


class Polar(Op):
    """out = abs * (cos(angle) + i sin(angle))"""
    grad_fn_name, name, n_inputs = "PolarBackward0", "polar", 2
    saves = ("result",)
    rule = "real(conj(grad) * sgn(result)), real(conj(grad) * result * i)"
    promotes = False

    def forward(abs, angle):
        return Complex.forward(abs * via64(np.cos)(angle), abs * via64(np.sin)(angle))

    def jvp(ctx, abs_t, angle_t):     # PyTorch's: abs_t e^(i angle) + i abs angle_t e^(i angle)
        turn = Complex.apply(ctx.angle.cos(), ctx.angle.sin())
        left = None if abs_t is None else abs_t * turn
        right = None if angle_t is None else angle_t * (ctx.result * 1j)
        if left is None or right is None:
            return right if left is None else left
        return left + right

    def backward(ctx, grad):
        a, b = ctx.needs_input_grad
        g = conj(grad)
        return (_real_of(g * ctx.result.sgn()) if a else None,
                _real_of(g * (ctx.result * 1j)) if b else None)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape, 0.5, 2.0), make(shape)


class Angle(Op):
    """out = atan2(imag, real)"""
    grad_fn_name, name = "AngleBackward0", "angle"
    saves = ("self",)
    rule = "grad * self / |self|**2 * i (0 where self is 0); 0 for real self"
    float_only = True

    def forward(self):
        out = np.angle(self)
        return out.astype(self.real.dtype) if out.dtype != self.real.dtype else out

    def jvp(ctx, self_t):     # Im(conj(self) self_t) / |self|**2: the turn of self_t about 0
        x = ctx.self
        if x._data.dtype.kind != "c":
            return new_tensor(np.zeros_like(ctx.result._data))
        turn = (self_t * conj(x)).imag / x.abs().pow(2)
        return turn.where(x != 0, new_tensor(np.zeros((), turn._data.dtype)))

    def backward(ctx, grad):
        x = ctx.self
        if x._data.dtype.kind != "c":
            return (new_tensor(np.zeros_like(x._data)),)
        turned = grad * x / x.abs().pow(2) * 1j     # (0 at 0, as PyTorch's where gives)
        return (turned.where(x != 0, new_tensor(np.zeros((), x._data.dtype))),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield (make(shape),)
        yield (complex_leaf(make, shape, 0.3, 2.0),)


def complex_leaf(make, shape, low=-2.0, high=2.0) -> Tensor:
    """A complex128 leaf that requires grad, its parts drawn by a gradient check's `make`
    (`low`..`high` is the magnitude of each part, with a random sign)."""
    parts = make(tuple(shape) + (2,), low, high).detach()._data
    signs = np.where(np.arange(parts.size).reshape(parts.shape) % 3 == 1, -1.0, 1.0)
    z = view_as_complex(new_tensor(parts * signs)).detach()
    return z.requires_grad_()


# ---- public entry points ------------------------------------------------------------------
def view_as_real(input: Tensor) -> Tensor:
    """The real and imaginary parts of a complex tensor as a last dimension of size 2, sharing
    its memory (`torch.view_as_real`)."""
    if input._data.dtype.kind != "c":
        raise RuntimeError("view_as_real is only supported for complex tensors")
    return ViewAsReal.apply(input)


def view_as_complex(input: Tensor) -> Tensor:
    """A float tensor whose last dimension of size 2 holds real and imaginary parts, seen as a
    complex tensor sharing its memory (`torch.view_as_complex`)."""
    a = input._data
    if a.dtype not in (np.float32, np.float64):
        raise RuntimeError("view_as_complex is only supported for float and double tensors, "
                           f"but got a tensor of scalar type: {input.dtype.legacy[:-6]}")
    if not a.ndim or a.shape[-1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    if a.strides[-1] != a.itemsize:
        raise RuntimeError("Tensor must have a last dimension with stride 1")
    return ViewAsComplex.apply(input)


def real(input: Tensor) -> Tensor:
    """The real parts, a view (`torch.real`, `Tensor.real`); a real tensor itself."""
    if input._data.dtype.kind != "c":
        return input
    return view_as_real(input).select(-1, 0)


def imag(input: Tensor) -> Tensor:
    """The imaginary parts of a complex tensor, a view (`torch.imag`, `Tensor.imag`)."""
    if input._data.dtype.kind != "c":
        raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
    return view_as_real(input).select(-1, 1)


_FLOATS = {np.dtype(np.float16): "Half", np.dtype(np.float32): "Float",
           np.dtype(np.float64): "Double"}


def complex(real: Tensor, imag: Tensor) -> Tensor:  # PyTorch's name
    """real + i imag from two float tensors of one dtype (`torch.complex`)."""
    _check_parts(real, imag)
    return Complex.apply(real, imag)


def polar(abs: Tensor, angle: Tensor) -> Tensor:  # PyTorch's name
    """abs * (cos(angle) + i sin(angle)) from two float tensors (`torch.polar`)."""
    _check_parts(abs, angle)
    return Polar.apply(abs, angle)


def _check_parts(a: Tensor, b: Tensor) -> None:
    da, db = a._data.dtype, b._data.dtype
    if da not in _FLOATS or db not in _FLOATS:
        raise RuntimeError("Expected both inputs to be Half, Float or Double tensors but got "
                           f"{a.dtype.legacy[:-6]} and {b.dtype.legacy[:-6]}")
    if da != db:
        raise RuntimeError(f"Expected object of scalar type {_FLOATS[da]} but got scalar type "
                           f"{_FLOATS[db]} for second argument")


def angle(input: Tensor) -> Tensor:
    """The argument of each element, atan2(imag, real) (`torch.angle`); for real tensors 0
    or pi."""
    return Angle.apply(input)


def refuse(op: str, t: Tensor) -> None:
    """PyTorch's kernels that order values have no complex version; it names the kernel."""
    if t._data.dtype.kind == "c":
        raise NotImplementedError(messages.no_complex_kernel(op, t.dtype))
