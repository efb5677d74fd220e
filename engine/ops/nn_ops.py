"""Ops with their own PyTorch nodes that `torch.nn.functional` builds on: addmm, the division
by a number that losses end with, and the activations (leaky_relu, softplus, silu, elu, gelu,
logsigmoid, hardtanh, celu, hardsigmoid, hardswish, mish, threshold; GLU and
PReLU are in `nn_gated.py`).

PyTorch counterparts: `torch.addmm` (what `F.linear` records) and the `F.*` activations. The
losses are in `losses.py`; the checks on shapes, the warnings and the composite functions live
in `engine/nn/functional.py`.
"""
from __future__ import annotations

import math

import numpy as np

from .. import _events
from ..grad_mode import state as _grad_state
from ..tensor import Tensor, new_tensor
from . import _local_rows
from ._broadcast import records_nothing, sum_to
from ._exact import F32, SMALL, fma32, one_minus_square, via64
from ._mm_order import addmm_rank_one, matmul2d
from ._op import Op
from .grad_ops import LeakyReluBackward, ThresholdBackward
from .grad_ops_activations import (EluBackward, GeluBackward, HardsigmoidBackward,
                                   HardswishBackward, HardtanhBackward, LogSigmoidBackward,
                                   SoftplusBackward)
from .arithmetic import AddScalar
from .linalg import column_major, grad_in, legacy_name, mm_mat2_backward

_via64_exp, _via64_expm1, _via64_log1p = via64(np.exp), via64(np.expm1), via64(np.log1p)
_via64_log, _via64_tanh = via64(np.log), via64(np.tanh)


def _x(shape) -> str:
    return "x".join(str(n) for n in shape)


def _plain32(grad: Tensor, x: Tensor) -> bool:
    """Whether a backward may compute PyTorch's fused formula in numpy: small float32 arrays
    of one shape and nothing recorded (under create_graph, Tensor ops build the graph)."""
    g = grad._data
    return (g.dtype == F32 and g.shape == x._data.shape and g.size <= SMALL
            and records_nothing())


class DivScalar(Op):
    """out = self / other for a Python number other (PyTorch's div.Scalar overload)"""
    grad_fn_name, name = "DivBackward1", "div"
    jvp = "linear"
    saves = ("other",)
    rule = "grad / other"

    def forward(self, other):
        return self / other

    def backward(ctx, grad):
        return (grad / ctx.other,)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), 3.0


def _saved_matrix(ctx, i: int, dtype):
    """Saved tensor `i` of an addmm node, read without its accessor: None when it was freed,
    packed by a hook, changed in place or of another dtype than the gradient (the accessor
    then raises PyTorch's error, or grad_in casts, on the general path)."""
    v = ctx._saved[i]
    if type(v) is Tensor and v._vc[0] == ctx._versions[i] and v._data.dtype == dtype:
        return v._data
    return None


def _addmm_plain_backward(ctx, grad: Tensor):
    """Addmm's gradients in numpy directly for a plain backward (nothing recorded, nothing
    reported) with alpha = beta = 1: the arrays the general path computes (the same products
    and the same sum_to), without reading eight saved values through their accessors and
    three helpers' checks; None where the general path must run."""
    alpha, beta, _, _, _, _, self_sizes, mat2_column_major, mat1_column_major = ctx._saved
    if type(alpha) not in _ONES or type(beta) not in _ONES or alpha != 1 or beta != 1:
        return None
    fa, fb, fc = ctx._fns
    g = grad._data
    if fb is not None:
        m2 = _saved_matrix(ctx, 4, g.dtype)
        if m2 is None or mat1_column_major:
            return None
    if fc is not None:
        m1 = _saved_matrix(ctx, 2, g.dtype)
        if m1 is None:
            return None
    return (None if fa is None else sum_to(grad, self_sizes),
            None if fb is None else new_tensor(matmul2d(g, m2.T)),
            None if fc is None else new_tensor(matmul2d(g.T, m1).T if mat2_column_major
                                               else matmul2d(m1.T, g)))


_ONES = (int, float)      # the types of alpha and beta the plain path takes


class Addmm(Op):
    """out = beta * self + alpha * (mat1 @ mat2)"""
    grad_fn_name, name, n_inputs = "AddmmBackward0", "addmm", 3
    saves = ("alpha", "beta", "mat1", "mat1_sym_sizes", "mat2", "mat2_sym_sizes",
             "_self_sym_sizes", "_mat2_column_major", "_mat1_column_major")
    # each matrix only for the other's gradient, as PyTorch (so a weight changed in place
    # after forward still trains a layer whose input needs no grad); mat2's layout is kept
    # apart for mm_mat2_backward, as PyTorch keeps mat2's strides (and mat1's for mat1's)
    save_when = {"mat1": 2, "mat2": 1}
    rule = "sum_to(beta * grad), alpha * grad @ mat2.T, alpha * mat1.T @ grad"

    def forward(self, mat1, mat2, beta=1, alpha=1, _mat2_column_major=False,
                _mat1_column_major=False):
        if mat1.dtype != mat2.dtype or self.dtype != mat2.dtype:     # (the usual case skips)
            for name, a in (("mat1", mat1), ("self", self)):    # before shapes, as PyTorch
                if a.dtype != mat2.dtype:
                    raise RuntimeError(f"{name} and mat2 must have the same dtype, but got "
                                       f"{legacy_name(a)} and {legacy_name(mat2)}")
        if mat1.shape[1] != mat2.shape[0]:
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({_x(mat1.shape)} "
                               f"and {_x(mat2.shape)})")
        full = (mat1.shape[0], mat2.shape[1])
        lead = 2 - self.ndim
        # (a bias as wide as the output, F.linear's, is the usual case and needs no check)
        for i, n in enumerate(() if self.shape == full[1:] else self.shape):
            if n != 1 and n != full[lead + i]:
                raise RuntimeError(
                    f"The expanded size of the tensor ({full[lead + i]}) must match the existing "
                    f"size ({n}) at non-singleton dimension {lead + i}.  Target sizes: "
                    f"{list(full)}.  Tensor sizes: {list(self.shape)}")
        fused = addmm_rank_one(self, mat1, mat2) if beta == 1 and alpha == 1 else None
        if fused is not None:
            return fused
        prod = matmul2d(mat1, mat2)      # NOTE [small matrix products]: the bias comes after
        if alpha != 1:
            prod = prod * alpha
        bias = self if beta == 1 else self * beta
        if bias.dtype == prod.dtype or np.result_type(prod, bias) == prod.dtype:
            prod += bias        # prod is a fresh array: adding in place saves a full copy
            return prod
        return prod + bias

    def backward(ctx, grad):
        if not _grad_state.enabled and (_events.listener is None or _grad_state.quiet):
            plain = _addmm_plain_backward(ctx, grad)       # records_nothing(), inline
            if plain is not None:
                return plain
        a, b, c = ctx.needs_input_grad
        alpha, beta = ctx.alpha, ctx.beta
        if b or c:
            grad = grad_in(grad, ctx.mat2 if b else ctx.mat1)
        g = grad if alpha == 1 else grad * alpha
        gs = sum_to(grad if beta == 1 else grad * beta, ctx._self_sym_sizes) if a else None
        m2 = ctx.mat2 if b else None
        if not b:
            g1 = None
        elif ctx._mat1_column_major:    # PyTorch's mm_mat1_backward: (mat2 @ grad.t()).t()
            g1 = m2.mm(g.t()).t()
        elif records_nothing() and g._data.dtype == m2._data.dtype:
            g1 = new_tensor(matmul2d(g._data, m2._data.T))    # what g.mm(mat2.t()) computes
        else:
            g1 = g.mm(m2.t())
        return (gs, g1, mm_mat2_backward(g, ctx.mat1, ctx._mat2_column_major) if c else None)

    def jvp(ctx, self_t, mat1_t, mat2_t):
        # PyTorch's beta * self_t + alpha * mat1_t @ mat2 + alpha * mat1 @ mat2_t
        terms = [None if self_t is None else self_t if ctx.beta == 1 else self_t * ctx.beta,
                 None if mat1_t is None else mat1_t.mm(ctx.mat2),
                 None if mat2_t is None else ctx.mat1.mm(mat2_t)]
        out = None
        for k, term in enumerate(terms):
            if term is not None and k and ctx.alpha != 1:
                term = term * ctx.alpha
            out = term if out is None else out if term is None else out + term
        return out

    @classmethod
    def local_rows(cls, node, a, sizes):    # the bias summed, each matrix laid out
        alpha, beta = _local_rows.saved(node, cls, "alpha"), _local_rows.saved(node, cls, "beta")
        if type(alpha) not in (int, float) or type(beta) not in (int, float) or alpha != 1 \
                or beta != 1 or _local_rows.saved(node, cls, "_mat1_column_major"):
            return None
        return _local_rows.matmul(node, cls, a, sizes, node._fns,
                                  _local_rows.saved(node, cls, "_self_sym_sizes"), "mat1")

    @classmethod
    def sample_inputs(cls, make, shape):
        n, k = (shape + (2, 3))[:2]
        yield make((2,)), make((n, k)), make((k, 2))
        yield make((n, 2)), make((n, k)), make((k, 2)), 0.5, 2.0
        yield make(()), make((1, k)), make((k, 1))


def addmm(input, mat1, mat2, *, beta=1, alpha=1) -> Tensor:
    """beta * input + alpha * mat1 @ mat2 in one node (`torch.addmm`).

    Example:
        >>> import gradstep.engine as torch
        >>> b = torch.zeros(2, requires_grad=True)
        >>> y = addmm(b, torch.ones(1, 3), torch.ones(3, 2))
        >>> y.tolist(), type(y.grad_fn).__name__
        ([[3.0, 3.0]], 'AddmmBackward0')
    """
    for t, what in ((mat1, "mat1"), (mat2, "mat2")):
        if t.ndim != 2:
            raise RuntimeError(f"{what} must be a matrix, got {t.ndim}-D tensor")
    return Addmm.apply(input, mat1, mat2, beta, alpha, column_major(mat2), column_major(mat1))


class LeakyRelu(Op):
    """out = self if self > 0 else negative_slope * self"""
    grad_fn_name, name = "LeakyReluBackward0", "leaky_relu"
    jvp = "elementwise"
    saves = ("negative_slope", "self")
    rule = "grad where self > 0, negative_slope * grad elsewhere"
    float_only = True

    def forward(self, negative_slope=0.01):
        return np.where(self > 0, self, self * negative_slope)

    def backward(ctx, grad):
        return (LeakyReluBackward.apply(grad, ctx.self, ctx.negative_slope),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), 0.2


class LeakyReluInplace(LeakyRelu):
    """self = leaky_relu(self) in place (leaky_relu_): the backward reads the output"""
    grad_fn_name, name = "LeakyReluBackward1", "leaky_relu_"
    saves = ("negative_slope", "result")
    rule = "grad where result > 0, negative_slope * grad elsewhere"

    def backward(ctx, grad):        # PyTorch's leaky_relu_backward with self_is_result=True
        return (LeakyReluBackward.apply(grad, ctx.result, ctx.negative_slope),)


class Softplus(Op):
    """out = log(1 + e**(beta * self)) / beta, or self where beta * self > threshold"""
    grad_fn_name, name = "SoftplusBackward0", "softplus"
    jvp = "elementwise"
    saves = ("beta", "self", "threshold")
    rule = "grad * sigmoid(beta * self) (grad where beta * self > threshold)"
    float_only = True

    def forward(self, beta=1.0, threshold=20.0):
        z = self * beta
        if self.dtype == F32 and self.size <= SMALL:      # PyTorch's log1p(exp(z)) / beta
            soft = _via64_log1p(_via64_exp(np.minimum(z, threshold))) / np.float32(beta)
        else:
            soft = (np.log1p(np.exp(-np.abs(z))) + np.maximum(z, 0)) / beta
        return np.where(z > threshold, self, soft).astype(self.dtype, copy=False)

    def backward(ctx, grad):        # PyTorch's softplus_backward, its own node
        return (SoftplusBackward.apply(grad, ctx.self, ctx.beta, ctx.threshold),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), 1.0, 20.0
        yield make(shape, 0.6, 2.0), 2.0, 1.0


class Silu(Op):
    """out = self * sigmoid(self)"""
    grad_fn_name, name, saves = "SiluBackward0", "silu", ("self",)
    jvp = "elementwise"
    rule = "grad * s * (1 + self * (1 - s)), s = sigmoid(self)"
    float_only = True

    def forward(self):
        return self / (1 + _via64_exp(-self))

    def backward(ctx, grad):
        s = ctx.self.sigmoid()
        if _plain32(grad, ctx.self):    # PyTorch: grad * s * (1 + x * (1 - s)), one fma
            sd = s._data
            return (new_tensor(grad._data * sd * fma32(ctx.self._data, 1 - sd, F32.type(1))),)
        # PyTorch's composite: 1 + ... is add.Scalar (AddBackward1), 1 - s a filled tensor
        one = new_tensor(np.ones_like(s._data))
        return (grad * s * AddScalar.apply(ctx.self * (one - s), 1),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield (make(shape),)


class Elu(Op):
    """out = self where self > 0, alpha * (e**self - 1) elsewhere"""
    grad_fn_name, name = "EluBackward0", "elu"
    jvp = "elementwise"
    saves = ("alpha", "input_scale", "scale", "self")
    rule = "grad where self > 0, grad * alpha * e**self elsewhere"
    float_only = True

    def forward(self, alpha=1.0, scale=1, input_scale=1):
        dt = self.dtype.type            # PyTorch's kernel: each coefficient in the input's type
        neg = _via64_expm1(self * dt(input_scale)) * (dt(alpha) * dt(scale))
        pos = self if scale == 1 else self * dt(scale)
        return np.where(self > 0, pos, neg).astype(self.dtype, copy=False)

    def backward(ctx, grad):        # PyTorch's elu_backward, its own node
        return (EluBackward.apply(grad, ctx.self, ctx.alpha, ctx.scale, ctx.input_scale),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), 0.5


class EluInplace(Elu):
    """self = elu(self) in place (elu_, selu_): the backward reads the output, not the input"""
    grad_fn_name, name = "EluBackward1", "elu_"
    saves = ("alpha", "input_scale", "result", "scale")
    rule = "grad * scale where result > 0, grad * input_scale * (result + alpha * scale) else"

    def backward(ctx, grad):        # PyTorch's elu_backward with is_result=True
        return (EluBackward.apply(grad, ctx.result, ctx.alpha, ctx.scale, ctx.input_scale,
                                  True),)


class Gelu(Op):
    """out = self * Phi(self) (Phi the normal CDF; 'tanh' uses its tanh approximation)"""
    grad_fn_name, name, saves = "GeluBackward0", "gelu", ("approximate", "self")
    jvp = "elementwise"
    rule = "grad * (Phi(self) + self * phi(self))"
    float_only = True

    def forward(self, approximate="none"):
        if approximate == "tanh":
            inner = _SQRT_2_OVER_PI * (self + 0.044715 * self ** 3)
            return (0.5 * self * (1 + np.tanh(inner))).astype(self.dtype, copy=False)
        return (0.5 * self * (1 + _erf(self / math.sqrt(2)))).astype(self.dtype, copy=False)

    def backward(ctx, grad):        # PyTorch's gelu_backward, its own node
        return (GeluBackward.apply(grad, ctx.self, ctx.approximate),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), "none"
        yield make(shape), "tanh"


class LogSigmoid(Op):
    """out = log(sigmoid(self)) = min(self, 0) - log1p(e**-|self|)"""
    grad_fn_name, name = "LogSigmoidBackward0", "log_sigmoid"
    jvp = "elementwise"
    saves = ("buffer", "self")
    forward_extras = ("buffer",)
    rule = "grad * (1 - sigmoid(self))"
    float_only = True

    def forward(self):
        buffer = _via64_exp(-np.abs(self))      # PyTorch's kernel keeps e**-|x| for backward
        out = (np.minimum(self, 0) - _via64_log1p(buffer)).astype(self.dtype, copy=False)
        return out, (new_tensor(buffer),)

    def backward(ctx, grad):        # PyTorch's log_sigmoid_backward, its own node
        return (LogSigmoidBackward.apply(grad, ctx.self, ctx.buffer),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield (make(shape),)


class Hardtanh(Op):
    """out = min(max(self, min_val), max_val)"""
    grad_fn_name, name = "HardtanhBackward0", "hardtanh"
    jvp = "elementwise"
    saves = ("max_val", "min_val", "self")
    rule = "grad where min_val < self < max_val, else 0"

    def forward(self, min_val=-1.0, max_val=1.0):
        return np.minimum(np.maximum(self, min_val), max_val).astype(self.dtype, copy=False)

    def backward(ctx, grad):        # PyTorch's hardtanh_backward, its own node
        return (HardtanhBackward.apply(grad, ctx.self, ctx.min_val, ctx.max_val),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), -0.5, 0.5


# SELU's constants, as PyTorch writes them (torch.selu is elu with these)
SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


class Celu(Op):
    """out = self where self > 0, alpha * (e**(self / alpha) - 1) elsewhere"""
    grad_fn_name, name, saves = "CeluBackward0", "celu", ("alpha", "self")
    jvp = "elementwise"
    rule = "grad where self > 0, grad * e**(self / alpha) elsewhere"

    def forward(self, alpha=1.0):
        return Elu.forward(self, alpha, 1, 1.0 / alpha)

    def backward(ctx, grad):        # PyTorch: elu_backward with input_scale 1 / float(alpha)
        alpha = ctx.alpha
        return (EluBackward.apply(grad, ctx.self, alpha, 1, 1.0 / float(np.float32(alpha))),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), 0.5


class CeluInplace(Celu):
    """self = celu(self) in place (celu_): the backward reads the output, not the input"""
    grad_fn_name, name, saves = "CeluBackward1", "celu_", ("alpha", "result")
    rule = "grad where result > 0, grad * (result / alpha + 1) elsewhere"

    def backward(ctx, grad):        # PyTorch: elu_backward(.., is_result=True, result)
        alpha = ctx.alpha
        return (EluBackward.apply(grad, ctx.result, alpha, 1, 1.0 / float(np.float32(alpha)),
                                  True),)


class Hardsigmoid(Op):
    """out = min(max(self + 3, 0), 6) / 6"""
    grad_fn_name, name, saves = "HardsigmoidBackward0", "hardsigmoid", ("self",)
    jvp = "elementwise"
    rule = "grad / 6 where -3 < self < 3, else 0"
    derivative_orders = 1           # PyTorch defines no derivative of hardsigmoid_backward

    def forward(self):
        dt = self.dtype.type
        return np.minimum(np.maximum(self + dt(3), dt(0)), dt(6)) / dt(6)

    def backward(ctx, grad):        # PyTorch's hardsigmoid_backward (it has no derivative)
        return (HardsigmoidBackward.apply(grad, ctx.self),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield (make(shape, -4.0, 4.0),)


class Hardswish(Op):
    """out = self * min(max(self + 3, 0), 6) / 6"""
    grad_fn_name, name, saves = "HardswishBackward0", "hardswish", ("self",)
    jvp = "elementwise"
    rule = "0 where self <= -3, grad * (self / 3 + 0.5) where self < 3, else grad"

    def forward(self):
        dt = self.dtype.type
        return self * np.minimum(np.maximum(self + dt(3), dt(0)), dt(6)) / dt(6)

    def backward(ctx, grad):        # PyTorch's hardswish_backward, its own node
        return (HardswishBackward.apply(grad, ctx.self),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield (make(shape, -4.0, 4.0),)


class Mish(Op):
    """out = self * tanh(softplus(self))"""
    grad_fn_name, name, saves = "MishBackward0", "mish", ("self",)
    jvp = "elementwise"
    rule = "grad * (t + self * sigmoid(self) * (1 - t**2)), t = tanh(softplus(self))"

    def forward(self):
        return self * _via64_tanh(_via64_log1p(_via64_exp(self)))

    def backward(ctx, grad):
        x = ctx.self
        if not _grad_state.enabled:     # PyTorch's mish_backward kernel
            xd, g = x._data, grad._data
            one = xd.dtype.type(1)
            sig = one / (one + _via64_exp(-xd))
            t = _via64_tanh(_via64_log1p(_via64_exp(xd)))
            if _plain32(grad, x):       # its compiler fuses 1 - t * t and t + (x * s) * that
                return (new_tensor(g * fma32(xd * sig, one_minus_square(t), t)),)
            return (new_tensor(g * (t + xd * sig * (one - t * t))),)
        # under create_graph, PyTorch's infinitely differentiable composite
        t = x.exp().log1p().tanh()
        one = new_tensor(np.ones_like(t._data))
        return (grad * (t + x * x.sigmoid() * (one - t * t)),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield (make(shape),)


class Threshold(Op):
    """out = value where self <= threshold, else self"""
    grad_fn_name, name, saves = "ThresholdBackward0", "threshold", ("self", "threshold")
    jvp = "elementwise"
    rule = "grad where self > threshold, else 0"

    def forward(self, threshold, value):
        return np.where(self <= threshold, self.dtype.type(value), self)

    def backward(ctx, grad):        # PyTorch's threshold_backward, relu's kernel
        return (ThresholdBackward.apply(grad, ctx.self, ctx.threshold),)

    @classmethod
    def sample_inputs(cls, make, shape):
        yield make(shape), 0.5, -2.0


class ThresholdInplace(Threshold):
    """self = value where self <= threshold (threshold_, in place)"""
    grad_fn_name, name = "ThresholdBackward1", "threshold_"


_SQRT_2_OVER_PI = math.sqrt(2 / math.pi)
_erf_scalar = np.frompyfunc(math.erf, 1, 1)


def _erf(x: np.ndarray) -> np.ndarray:
    return np.asarray(_erf_scalar(x), dtype=x.dtype)


__all__ = ["addmm", "Addmm", "DivScalar", "LeakyRelu", "Softplus", "Silu", "Elu", "Gelu",
           "LogSigmoid", "Hardtanh", "Celu", "Hardsigmoid", "Hardswish", "Mish", "Threshold",
           "ThresholdInplace", "EluInplace", "CeluInplace", "SELU_ALPHA", "SELU_SCALE"]
