"""The math half of `Tensor`: operators and methods, each a one-line call into `engine.ops`.

Kept apart from `tensor.py` (data and autograd metadata) so each file stays readable. The op
modules import `Tensor`, so they are bound here by `bind_ops()` once `tensor.py` has defined
it (see the bottom of tensor.py); every method looks them up at call time.
"""
from __future__ import annotations

import numpy as _np

from ._names import numpy_kwargs
from .deprecated import scalar_first
from .device import no_cuda
from .foreign_operands import (_NUMBERS, accept_tensors, array_over_tensor, declines_lists,
                               declines_sequences, refuse)
from .grad_mode import is_inference_uid as _is_inference_uid

ar = ew = cl = cmp = red = stt = sh = jn = ix = sel = la = ip = fac = _op = None  # bind_ops()
fu = ext = cum = mom = tri = rea = vec = itr = rnd = xl = bm = spc = bip = None    # bind_ops()
cnt = nns = ixw = sct = scr = ost = dtm = nnf = lgt = smp = None                  # bind_ops()
_T = None   # the Tensor class, bound by bind_ops()


def bind_ops() -> None:
    """Import the op families (called once, after Tensor exists).

    The one place this module reaches the modules that import `Tensor`: each global below is
    a family module, and each method calls through it (one global lookup, as a top-level
    import costs), never by importing inside the method.
    """
    global ar, ew, cl, cmp, red, stt, sh, jn, ix, sel, la, ip, fac, _op, _T
    global fu, ext, cum, mom, tri, rea, vec, itr, rnd, xl, bm, spc, bip
    global cnt, nns, ixw, sct, scr, ost, dtm, nnf, lgt, smp, cx
    from .tensor import Tensor as _T
    accept_tensors(_T)
    from . import factories as fac, legacy_types as lgt, sampling as smp
    from .nn import functional as nnf
    from .ops import (_op, arithmetic as ar, binary_inplace as bip, binary_math as bm,
                      clamping as cl, comparison as cmp, complex as cx, counting as cnt,
                      cumulative as cum, determinant as dtm, elementwise as ew, extrema as ext,
                      fused as fu, index_writes as ixw, indexing as ix, inplace as ip,
                      inverse_trig as itr, join as jn, linalg as la, moments as mom,
                      nansum as nns,
                      order_stats as ost, rearrange as rea, reduction as red, rounding as rnd,
                      scatter as sct, scatter_reduce as scr, selection as sel, shape as sh,
                      special as spc, stats as stt, triangular as tri, vectors as vec,
                      xlogy as xl)
    from .ops._codegen import compile_operator
    # the methods the class body leaves out (see there): each is its op's generated apply
    TensorOps.__add__ = compile_operator(ar.Add, "__add__", (1,))
    TensorOps.__radd__ = compile_operator(ar.Add, "__radd__", (1,))   # 2 + x is x + 2
    # sub refuses a bool operand before promotion could hide it: ar.sub raises then
    TensorOps.__sub__ = compile_operator(
        ar.Sub, "__sub__", (1,), "i0._data.dtype.kind == 'b' or i1._data.dtype.kind == 'b'",
        ar.sub)
    TensorOps.__mul__ = compile_operator(ar.Mul, "__mul__")
    TensorOps.__rmul__ = compile_operator(ar.Mul, "__rmul__")   # 2 * x is x * 2
    TensorOps.__truediv__ = compile_operator(ar.Div, "__truediv__")
    TensorOps.__neg__ = compile_operator(ar.Neg, "__neg__")
    for name, op in (("exp", ew.Exp), ("sin", ew.Sin), ("cos", ew.Cos), ("tanh", ew.Tanh)):
        setattr(TensorOps, name, compile_operator(op, name))
    for cls in (TensorOps, _T):
        name_methods(cls)


# The methods PyTorch writes in Python (torch/_tensor.py), whose wrong-keyword TypeError names
# the class: "Tensor.backward() got an unexpected keyword argument 'foo'". Recorded from
# PyTorch as upstream_names.NAMES["Tensor:python"]; tests check this list against it.
PYTHON_METHODS = frozenset(("backward", "register_hook", "register_post_accumulate_grad_hook",
                            "norm", "split", "unique", "unflatten"))


def name_methods(cls) -> None:
    """Name each public method of `cls` as PyTorch's wrong-call TypeErrors do. Python builds
    "got an unexpected keyword argument" and "missing 1 required positional argument" from
    the function's __qualname__, so `t.sum(foo=1)` would say "TensorOps.sum()"; PyTorch's C++
    methods say "sum()" (its argument parser's words, for the ones with a single signature),
    its Python ones "Tensor.norm()". Renaming once here covers every method, the numpy_kwargs
    wrappers' inner functions too."""
    for name, value in vars(cls).items():
        if name.startswith("__") or not callable(value):
            continue
        qualname = f"Tensor.{name}" if name in PYTHON_METHODS else name
        fn = value
        while fn is not None:
            try:
                fn.__qualname__ = qualname
            except (AttributeError, TypeError):    # a builtin or a bound method: not ours
                break
            fn = getattr(fn, "__wrapped__", None)


class TensorOps:
    """Operators and methods; see `engine.ops` for what each op records."""

    __slots__ = ()

    # ---- arithmetic operators -------------------------------------------------------------
    # __add__, __radd__, __sub__, __mul__, __rmul__, __truediv__, __neg__ (and exp, sin, cos,
    # tanh below) are their op's generated apply itself, bound by bind_ops(), which wraps a
    # number operand as ar.add, ar.sub, ar.mul, ar.div do: no delegating frame
    # (NOTE [tiny-op fast path])
    # binary operators decline a numpy array, list or tuple (foreign_operands.py): reflected
    # ones on the left, forward ones (but for ==, which PyTorch lets take an array) on the right
    @declines_sequences
    def __rsub__(self, other): return ar.rsub(self, other)

    def __rtruediv__(self, other):
        if isinstance(other, _np.ndarray):
            return array_over_tensor(other, self)
        if not isinstance(other, _NUMBERS):
            return NotImplemented
        return ar.rdiv(other, self)

    @declines_sequences
    def __floordiv__(self, other): return cmp.floor_divide(self, other)
    @declines_sequences
    def __rfloordiv__(self, other): return cmp.floor_divide(other, self)
    @declines_sequences
    def __mod__(self, other): return cmp.remainder(self, other)
    @declines_sequences
    def __rmod__(self, other): return cmp.remainder(other, self)
    @declines_sequences
    def __pow__(self, other): return ar.pow(self, other)
    @declines_sequences
    def __rpow__(self, other): return ar.pow(other, self)
    # @ declines anything but a tensor, numbers too (PyTorch turns matmul's TypeError into
    # NotImplemented, so `t @ 2` is Python's "unsupported operand type(s) for @")
    def __matmul__(self, other): return la.matmul(self, other) if _is_t(other) else NotImplemented
    def __rmatmul__(self, other): return la.matmul(other, self) if _is_t(other) else NotImplemented
    def __pos__(self): return self
    def __abs__(self): return ew.abs(self)
    @declines_sequences
    def __iadd__(self, other): return ip.apply_inplace(ar.Add, "add_", self, _t(self, other), 1)
    @declines_sequences
    def __isub__(self, other): return ar.sub_(self, _t(self, other))
    @declines_sequences
    def __imul__(self, other): return ip.apply_inplace(ar.Mul, "mul_", self, _t(self, other))
    @declines_sequences
    def __itruediv__(self, other): return ip.apply_inplace(ar.Div, "div_", self, _t(self, other))
    @declines_sequences
    def __ifloordiv__(self, other): return rnd.floor_divide_(self, other)
    @declines_sequences
    def __imod__(self, other): return rnd.remainder_(self, other)

    # ---- comparisons and logic (never differentiable) --------------------------------------
    # PyTorch's != and ordering decline a numpy array, list or tuple either side; == an array
    @declines_lists
    def __eq__(self, other): return cmp.eq(self, other)
    @declines_sequences
    def __ne__(self, other): return cmp.ne(self, other)
    @declines_sequences
    def __lt__(self, other): return cmp.lt(self, other)
    @declines_sequences
    def __le__(self, other): return cmp.le(self, other)
    @declines_sequences
    def __gt__(self, other): return cmp.gt(self, other)
    @declines_sequences
    def __ge__(self, other): return cmp.ge(self, other)
    @declines_sequences
    def __and__(self, other): return cmp.bitwise_and(self, other)
    @declines_sequences
    def __or__(self, other): return cmp.bitwise_or(self, other)
    @declines_sequences
    def __xor__(self, other): return cmp.bitwise_xor(self, other)
    def __invert__(self): return cmp.bitwise_not(self)
    def eq(self, other): return cmp.eq(self, other)
    def ne(self, other): return cmp.ne(self, other)
    def lt(self, other): return cmp.lt(self, other)
    def le(self, other): return cmp.le(self, other)
    def gt(self, other): return cmp.gt(self, other)
    def ge(self, other): return cmp.ge(self, other)
    def equal(self, other): return fac.equal(self, other)
    def allclose(self, other, rtol=1e-05, atol=1e-08): return fac.allclose(self, other, rtol, atol)
    def logical_not(self): return cmp.logical_not(self)
    def isnan(self): return cmp.isnan(self)
    def isinf(self): return cmp.isinf(self)
    def isfinite(self): return cmp.isfinite(self)
    def all(self, dim=None): return red.all(self, dim)
    def any(self, dim=None): return red.any(self, dim)

    # ---- indexing ------------------------------------------------------------------------
    def __getitem__(self, key): return ix.getitem(self, key)
    def __setitem__(self, key, value): ix.setitem(self, key, value)

    # ---- elementwise methods -------------------------------------------------------------
    @scalar_first("alpha", ("other",), method=True)
    def add(self, other, *, alpha=1): return ar.add(self, _other(other, "add"), alpha=alpha)
    @scalar_first("alpha", ("other",), method=True)
    def sub(self, other, *, alpha=1): return ar.sub(self, _other(other, "sub"), alpha=alpha)
    def mul(self, other): return ar.mul(self, _other(other, "mul"))
    # (only a rounding_mode passed, even as None, selects PyTorch's DivBackward2 overload)
    def div(self, other, **rounding): return ar.div(self, _other(other, "div"), **rounding)
    def floor_divide(self, other): return rnd.floor_divide(self, other)
    def remainder(self, other): return rnd.remainder(self, other)
    def fmod(self, other): return rnd.fmod(self, other)
    def pow(self, exponent): return ar.pow(self, exponent)
    def neg(self): return ar.neg(self)
    def abs(self): return ew.abs(self)

    # PyTorch's NumPy-style aliases: the same ops, the same grad_fns (MulBackward0 ...). (A
    # wrong operand is refused under the alias's name, in the one-line form; PyTorch lists the
    # alias's signatures there instead.)
    def subtract(self, other, *, alpha=1):
        return ar.sub(self, _other(other, "subtract"), alpha=alpha)

    def multiply(self, other): return ar.mul(self, _other(other, "multiply"))
    def divide(self, other, **rounding): return ar.div(self, _other(other, "divide"), **rounding)
    def true_divide(self, other): return ar.div(self, _other(other, "true_divide"))
    def negative(self): return ar.neg(self)
    def absolute(self): return ew.abs(self)
    # complex numbers (ops/complex.py): the parts are views, conj() of a real tensor is itself
    real = property(lambda self: cx.real(self))
    imag = property(lambda self: cx.imag(self))
    def conj(self): return cx.conj(self)
    def angle(self): return cx.angle(self)
    def is_complex(self): return self._data.dtype.kind == "c"
    # exp, sin, cos, tanh: their op's generated apply, bound by bind_ops() (see above)
    def log(self): return ew.log(self)
    def log2(self): return ew.log2(self)
    def log10(self): return ew.log10(self)
    def log1p(self): return ew.log1p(self)
    def expm1(self): return ew.expm1(self)
    def sqrt(self): return ew.sqrt(self)
    def rsqrt(self): return ew.rsqrt(self)
    def square(self): return ar.square(self)
    def tan(self): return ew.tan(self)
    def sinh(self): return ew.sinh(self)
    def cosh(self): return ew.cosh(self)
    def asin(self): return ew.asin(self)
    def atan(self): return ew.atan(self)
    def exp2(self): return ew.exp2(self)
    def erf(self): return ew.erf(self)
    def trunc(self): return ew.trunc(self)
    def fix(self): return ew.trunc(self)
    def frac(self): return spc.frac(self)
    def deg2rad(self): return spc.deg2rad(self)
    def rad2deg(self): return spc.rad2deg(self)
    def sinc(self): return spc.sinc(self)
    def logit(self, eps=None): return spc.logit(self, eps)
    def erfinv(self): return spc.erfinv(self)

    def nan_to_num(self, nan=0.0, posinf=None, neginf=None):
        return spc.nan_to_num(self, nan, posinf, neginf)

    def sigmoid(self): return ew.sigmoid(self)
    def relu(self): return ew.relu(self)

    def prelu(self, weight):
        return nnf.prelu(self, weight)

    def hardshrink(self, lambd=0.5):
        return nnf.hardshrink(self, lambd)

    def sign(self): return ew.sign(self)
    def sgn(self): return ew.sgn(self)
    def reciprocal(self): return ew.reciprocal(self)

    def clamp(self, min=None, max=None):
        return cl.clamp(self, min, max, _method=True)

    def clip(self, min=None, max=None):
        return cl.clamp(self, min, max, _name="clip", _method=True)

    def clamp_min(self, min): return cl.clamp_min(self, min)
    def clamp_max(self, max): return cl.clamp_max(self, max)
    def maximum(self, other): return cl.maximum(self, _other(other, "maximum", numbers=False))
    def minimum(self, other): return cl.minimum(self, _other(other, "minimum", numbers=False))
    def where(self, condition, other): return ew.where(condition, self, other)
    def masked_fill(self, mask, value): return sh.MaskedFill.apply(self, mask, _num(value))
    def floor(self): return ew.floor(self)
    def ceil(self): return ew.ceil(self)
    def round(self, decimals=None): return ew.round(self, decimals)

    @scalar_first("value", ("tensor1", "tensor2"), method=True)
    def addcmul(self, tensor1, tensor2, *, value=1):
        return fu.addcmul(self, tensor1, tensor2, value=value)

    @scalar_first("value", ("tensor1", "tensor2"), method=True)
    def addcdiv(self, tensor1, tensor2, *, value=1):
        return fu.addcdiv(self, tensor1, tensor2, value=value)

    def lerp(self, end, weight): return fu.lerp(self, end, weight)

    @scalar_first("value", ("tensor1", "tensor2"), method=True)
    def addcmul_(self, tensor1, tensor2, *, value=1):
        return ip.apply_inplace(fu.Addcmul, "addcmul_", self, tensor1, tensor2, value)

    @scalar_first("value", ("tensor1", "tensor2"), method=True)
    def addcdiv_(self, tensor1, tensor2, *, value=1):
        fu.addcdiv_check(tensor1, tensor2)
        return ip.apply_inplace(fu.Addcdiv, "addcdiv_", self, tensor1, tensor2, value)

    def lerp_(self, end, weight):
        op = fu.lerp_op(self, end, weight)
        return ip.apply_inplace(op, "lerp_", self, end, weight)

    def logaddexp(self, other): return fu.logaddexp(self, other)
    def acos(self): return itr.acos(self)
    def arccos(self): return itr.acos(self)
    def atan2(self, other): return itr.atan2(self, other)
    def xlogy(self, other): return xl.xlogy(self, other)
    def arctan2(self, other): return itr.atan2(self, other)
    def hypot(self, other): return bm.hypot(self, _other(other, "hypot", numbers=False))

    def copysign(self, other):
        if not isinstance(other, _T) and not isinstance(other, _NUMBERS):
            raise bm.copysign_error("copysign", (other,), True)
        return bm.copysign(self, other)

    def fmax(self, other): return bm.fmax(self, _other(other, "fmax", numbers=False))
    def fmin(self, other): return bm.fmin(self, _other(other, "fmin", numbers=False))
    def float_power(self, exponent): return bm.float_power(self, exponent, _method=True)

    def heaviside(self, values):
        return bm.heaviside(self, _other(values, "heaviside", "values", numbers=False))

    # ---- reductions ----------------------------------------------------------------------
    @numpy_kwargs
    def sum(self, dim=None, keepdim=False, *, dtype=None):
        return red.sum(self, dim, keepdim, dtype=dtype)

    @numpy_kwargs
    def mean(self, dim=None, keepdim=False, *, dtype=None):
        return red.mean(self, dim, keepdim, dtype=dtype)

    @numpy_kwargs
    def max(self, dim=None, keepdim=False): return red.max(self, dim, keepdim)
    @numpy_kwargs
    def min(self, dim=None, keepdim=False): return red.min(self, dim, keepdim)
    @numpy_kwargs
    def prod(self, dim=None, keepdim=False): return red.prod(self, dim, keepdim)
    def norm(self, p=2, dim=None, keepdim=False): return red.norm(self, p, dim, keepdim)

    @numpy_kwargs
    def var(self, dim=None, unbiased=True, keepdim=False):
        return stt.var(self, dim, unbiased, keepdim)

    @numpy_kwargs
    def std(self, dim=None, unbiased=True, keepdim=False):
        return stt.std(self, dim, unbiased, keepdim)

    @numpy_kwargs
    def argmax(self, dim=None, keepdim=False): return red.argmax(self, dim, keepdim)
    @numpy_kwargs
    def argmin(self, dim=None, keepdim=False): return red.argmin(self, dim, keepdim)
    def softmax(self, dim, dtype=None): return stt.softmax(self, dim, dtype)
    def cumsum(self, dim): return red.cumsum(self, dim)
    def cumprod(self, dim, *, dtype=None): return cum.cumprod(self, dim, dtype=dtype)
    def cummax(self, dim): return cum.cummax(self, dim)
    def cummin(self, dim): return cum.cummin(self, dim)
    @numpy_kwargs
    def amax(self, dim=(), keepdim=False): return ext.amax(self, dim, keepdim)
    @numpy_kwargs
    def amin(self, dim=(), keepdim=False): return ext.amin(self, dim, keepdim)
    def dist(self, other, p=2): return vec.dist(self, other, p)
    def nonzero(self, *, as_tuple=False): return rea.nonzero(self, as_tuple=as_tuple)
    def gather(self, dim, index): return sel.gather(self, dim, index)

    def unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):
        return cnt.unique(self, sorted, return_inverse, return_counts, dim)

    def diff(self, n=1, dim=-1, prepend=None, append=None):
        return cum.diff(self, n, dim, prepend, append)

    def aminmax(self, *, dim=None, keepdim=False):
        return ext.aminmax(self, dim=dim, keepdim=keepdim)

    def kron(self, other): return vec.kron(self, _other(other, "kron", numbers=False))

    def count_nonzero(self, dim=None):
        return cnt.count_nonzero(self, dim)

    @numpy_kwargs
    def nansum(self, dim=None, keepdim=False, *, dtype=None):
        return nns.nansum(self, dim, keepdim, dtype=dtype)

    def bincount(self, weights=None, minlength=0):
        return cnt.bincount(self, weights, minlength)

    def histc(self, bins=100, min=0, max=0):
        return cnt.histc(self, bins, min, max)

    def index_select(self, dim, index): return sel.index_select(self, dim, index)

    def index_copy(self, dim, index, source):
        return ixw.index_copy(self, dim, index, source)

    def index_copy_(self, dim, index, source):
        return ixw.index_copy_(self, dim, index, source)

    def index_add(self, dim, index, source, *, alpha=1):
        return ixw.index_add(self, dim, index, source, alpha=alpha)

    def index_add_(self, dim, index, source, *, alpha=1):
        return ixw.index_add_(self, dim, index, source, alpha=alpha)

    def index_put(self, indices, values, accumulate=False):
        return ixw.index_put(self, indices, values, accumulate)

    def index_put_(self, indices, values, accumulate=False):
        return ixw.index_put_(self, indices, values, accumulate)

    def scatter(self, dim, index, src=None, *, value=None, reduce=None):
        return sct.scatter(self, dim, index, src, value=value, reduce=reduce)

    def scatter_(self, dim, index, src=None, *, value=None, reduce=None):
        return sct.scatter_(self, dim, index, src, value=value, reduce=reduce)

    def scatter_add(self, dim, index, src):
        return sct.scatter_add(self, dim, index, src)

    def scatter_add_(self, dim, index, src):
        return sct.scatter_add_(self, dim, index, src)

    def scatter_reduce(self, dim, index, src, reduce, *, include_self=True):
        return scr.scatter_reduce(self, dim, index, src, reduce, include_self=include_self)

    def scatter_reduce_(self, dim, index, src, reduce, *, include_self=True):
        return scr.scatter_reduce_(self, dim, index, src, reduce, include_self=include_self)

    def kthvalue(self, k, dim=-1, keepdim=False):
        return ost.kthvalue(self, k, dim, keepdim)

    @numpy_kwargs
    def median(self, dim=None, keepdim=False):
        return ost.median(self, dim, keepdim)

    def mode(self, dim=-1, keepdim=False):
        return ost.mode(self, dim, keepdim)

    def sort(self, dim=-1, descending=False): return sel.sort(self, dim, descending)
    def argsort(self, dim=-1, descending=False): return sel.argsort(self, dim, descending)
    def topk(self, k, dim=-1, largest=True, sorted=True): return sel.topk(self, k, dim, largest)
    def log_softmax(self, dim, dtype=None): return stt.log_softmax(self, dim, dtype)
    @numpy_kwargs
    def logsumexp(self, dim, keepdim=False): return stt.logsumexp(self, dim, keepdim)

    # ---- linear algebra ------------------------------------------------------------------
    def matmul(self, other): return la.matmul(self, _other(other, "matmul", numbers=False))
    def mm(self, mat2): return la.mm(self, _other(mat2, "mm", "mat2", False))
    def mv(self, vec): return la.mv(self, _other(vec, "mv", "vec", False))
    def dot(self, other): return la.dot(self, _other(other, "dot", "tensor", False))
    def bmm(self, mat2): return la.bmm(self, _other(mat2, "bmm", "mat2", False))
    def outer(self, vec2): return la.outer(self, vec2)
    def cross(self, other, dim=None): return vec.cross(self, other, dim)
    def trace(self): return tri.trace(self)
    def tril(self, diagonal=0): return tri.tril(self, diagonal)
    def triu(self, diagonal=0): return tri.triu(self, diagonal)
    def diag(self, diagonal=0): return tri.diag(self, diagonal)
    def diagonal(self, offset=0, dim1=0, dim2=1): return tri.diagonal(self, offset, dim1, dim2)

    # ---- shape ---------------------------------------------------------------------------
    def view(self, *shape): return sh.view(self, *shape)
    def reshape(self, *shape): return sh.reshape(self, *shape)
    def view_as(self, other): return sh.view(self, other.shape)
    def reshape_as(self, other): return sh.reshape(self, other.shape)
    def flatten(self, start_dim=0, end_dim=-1): return sh.flatten(self, start_dim, end_dim)
    def unflatten(self, dim, sizes): return rea.unflatten(self, dim, sizes)
    def squeeze(self, dim=None): return sh.squeeze(self, dim)
    def unsqueeze(self, dim): return sh.unsqueeze(self, dim)
    def transpose(self, dim0, dim1): return sh.transpose(self, dim0, dim1)
    def t(self): return sh.t(self)
    def permute(self, *dims): return sh.permute(self, *dims)
    def expand(self, *sizes): return sh.expand(self, *sizes)
    def expand_as(self, other): return sh.expand(self, other.shape)
    def repeat(self, *sizes): return sh.repeat(self, *sizes)
    def flip(self, dims): return sh.flip(self, dims)
    def roll(self, shifts, dims=None): return rea.roll(self, shifts, dims)
    def movedim(self, source, destination): return rea.movedim(self, source, destination)
    def moveaxis(self, source, destination): return rea.movedim(self, source, destination)
    def tile(self, *dims): return rea.tile(self, sh._shape_arg(dims))
    def narrow(self, dim, start, length): return sh.narrow(self, dim, start, length)
    def select(self, dim, index): return sh.select(self, dim, index)
    def split(self, split_size, dim=0): return jn.split(self, split_size, dim)
    def chunk(self, chunks, dim=0): return jn.chunk(self, chunks, dim)
    def unbind(self, dim=0): return jn.unbind(self, dim)
    def unsafe_split(self, split_size, dim=0): return jn.unsafe_split(self, split_size, dim)
    def unsafe_chunk(self, chunks, dim=0): return jn.unsafe_chunk(self, chunks, dim)
    def clone(self): return sh.clone(self)
    def contiguous(self): return self if self.is_contiguous() else sh.clone(self)
    def is_inference(self): return _is_inference_uid(self._uid)

    @property
    def T(self): return sh.numpy_T(self)
    @property
    def mT(self): return sh.transpose(self, -2, -1)

    # ---- dtype conversion ----------------------------------------------------------------
    def to(self, *args, **kwargs): return sh.to(self, *args, **kwargs)
    def type(self, dtype=None, non_blocking=False):
        return lgt.tensor_type(self, dtype, non_blocking)
    def float(self): return sh.to(self, fac.dtypes.float32)
    def double(self): return sh.to(self, fac.dtypes.float64)
    def half(self): return sh.to(self, fac.dtypes.float16)
    def long(self): return sh.to(self, fac.dtypes.int64)
    def int(self): return sh.to(self, fac.dtypes.int32)
    def bool(self): return sh.to(self, fac.dtypes.bool)
    def cpu(self): return self
    cuda = no_cuda
    def get_device(self): return -1     # PyTorch's answer for a CPU tensor
    is_cpu = True
    def type_as(self, other): return sh.to(self, other.dtype)

    # ---- in place ------------------------------------------------------------------------
    @scalar_first("alpha", ("other",), method=True)
    def add_(self, other, *, alpha=1):
        return ip.apply_inplace(ar.Add, "add_", self, _ti(self, other, "add_"), alpha)

    @scalar_first("alpha", ("other",), method=True)
    def sub_(self, other, *, alpha=1): return ar.sub_(self, _ti(self, other, "sub_"), alpha)
    def mul_(self, other): return ip.apply_inplace(ar.Mul, "mul_", self, _ti(self, other, "mul_"))

    def div_(self, other, **rounding_mode):   # (a rounding_mode given, even None: DivBackward2)
        if rounding_mode:
            return rnd.div_(self, other, *_rounding_mode(rounding_mode))
        return ip.apply_inplace(ar.Div, "div_", self, _ti(self, other, "div_"))

    # the NumPy-style aliases in place: mul_, sub_, div_ under PyTorch's other names (the
    # same grad_fns); an operand is checked under the alias's name
    def multiply_(self, other):
        return ip.apply_inplace(ar.Mul, "multiply_", self, _ti(self, other, "multiply_"))

    def subtract_(self, other, *, alpha=1):
        return ar.sub_(self, _ti(self, other, "subtract_"), alpha)

    def divide_(self, other, **rounding_mode):
        if rounding_mode:
            return rnd.div_(self, other, *_rounding_mode(rounding_mode, "divide_"))
        return ip.apply_inplace(ar.Div, "divide_", self, _ti(self, other, "divide_"))

    def true_divide_(self, other):
        return ip.apply_inplace(ar.Div, "true_divide_", self, _ti(self, other, "true_divide_"))

    def floor_divide_(self, other): return rnd.floor_divide_(self, other)
    def xlogy_(self, other): return bip.xlogy_(self, other)
    def atan2_(self, other): return bip.atan2_(self, other)
    def arctan2_(self, other): return bip.atan2_(self, other, "arctan2_")
    def float_power_(self, exponent): return bip.float_power_(self, exponent)
    def heaviside_(self, values): return bip.heaviside_(self, values)
    def remainder_(self, other): return rnd.remainder_(self, other)
    def fmod_(self, other): return rnd.fmod_(self, other)
    def pow_(self, exponent): return ip.apply_inplace(ar.PowScalar, "pow_", self, exponent)
    def neg_(self): return ip.apply_inplace(ar.Neg, "neg_", self)
    def exp_(self): return ip.apply_inplace(ew.Exp, "exp_", self)
    def log_(self): return ip.apply_inplace(ew.Log, "log_", self)
    def sqrt_(self): return ip.apply_inplace(ew.Sqrt, "sqrt_", self)
    def sigmoid_(self): return ip.apply_inplace(ew.Sigmoid, "sigmoid_", self)
    def tanh_(self): return ip.apply_inplace(ew.Tanh, "tanh_", self)
    def relu_(self): return ip.apply_inplace(ew.Relu, "relu_", self)
    def abs_(self): return ip.apply_inplace(ew.Abs, "abs_", self)
    def sin_(self): return ip.apply_inplace(ew.Sin, "sin_", self)
    def cos_(self): return ip.apply_inplace(ew.Cos, "cos_", self)
    def square_(self): return ip.apply_inplace(ar.PowScalar, "square_", self, 2)
    def reciprocal_(self): return ip.apply_inplace(ew.Reciprocal, "reciprocal_", self)
    def floor_(self): return ip.apply_inplace(ew.Floor, "floor_", self)
    def ceil_(self): return ip.apply_inplace(ew.Ceil, "ceil_", self)
    def trunc_(self): return ip.apply_inplace(ew.Trunc, "trunc_", self)
    def fix_(self): return ip.apply_inplace(ew.Trunc, "fix_", self)

    def round_(self, decimals=None):
        if decimals is None:
            return ip.apply_inplace(ew.Round, "round_", self)
        _float_kernel("round_cpu", self)
        return ip.apply_inplace(ew.RoundDecimals, "round_", self, int(decimals))

    def sign_(self): return ip.apply_inplace(ew.Sign, "sign_", self)
    def sgn_(self): return ip.apply_inplace(ew.Sgn, "sgn_", self)
    def exp2_(self): return ip.apply_inplace(ew.Exp2, "exp2_", self)
    def expm1_(self): return ip.apply_inplace(ew.Expm1, "expm1_", self)
    def log2_(self): return ip.apply_inplace(ew.Log2, "log2_", self)
    def log10_(self): return ip.apply_inplace(ew.Log10, "log10_", self)
    def log1p_(self): return ip.apply_inplace(ew.Log1p, "log1p_", self)
    def rsqrt_(self): return ip.apply_inplace(ew.Rsqrt, "rsqrt_", self)
    def erf_(self): return ip.apply_inplace(ew.Erf, "erf_", self)
    def tan_(self): return ip.apply_inplace(ew.Tan, "tan_", self)
    def sinh_(self): return ip.apply_inplace(ew.Sinh, "sinh_", self)
    def cosh_(self): return ip.apply_inplace(ew.Cosh, "cosh_", self)
    def asin_(self): return ip.apply_inplace(ew.Asin, "asin_", self)
    def atan_(self): return ip.apply_inplace(ew.Atan, "atan_", self)
    def acos_(self): return ip.apply_inplace(itr.Acos, "acos_", self)
    def deg2rad_(self): return ip.apply_inplace(spc.Deg2Rad, "deg2rad_", self)
    def rad2deg_(self): return ip.apply_inplace(spc.Rad2Deg, "rad2deg_", self)
    def sinc_(self): return ip.apply_inplace(spc.Sinc, "sinc_", self)
    def logit_(self, eps=None): return ip.apply_inplace(spc.Logit, "logit_", self, eps)

    def erfinv_(self):
        spc.refuse_complex_erfinv(self)
        return ip.apply_inplace(spc.Erfinv, "erfinv_", self)

    def frac_(self):
        _float_kernel("frac_cpu", self)
        return ip.apply_inplace(spc.Frac, "frac_", self)

    def nan_to_num_(self, nan=0.0, posinf=None, neginf=None):
        return ip.apply_inplace(spc.NanToNum, "nan_to_num_", self, nan, posinf, neginf)

    def hypot_(self, other):
        other = _other(other, "hypot_", numbers=False)
        return ip.apply_inplace(bm.Hypot, "hypot_", self, other)

    def copysign_(self, other):
        if isinstance(other, _T):
            return ip.apply_inplace(bm.Copysign, "copysign_", self, other)
        if not isinstance(other, _NUMBERS):
            raise bm.copysign_error("copysign_", (other,), True)
        return ip.apply_inplace(bm.CopysignScalar, "copysign_", self, other)

    def clamp_(self, min=None, max=None):
        return cl.clamp_(self, min, max, _method=True)

    def clip_(self, min=None, max=None):
        return cl.clamp_(self, min, max, _name="clip_", _method=True)

    def clamp_min_(self, min):
        op = cl.ClampMinTensor if isinstance(min, _T) else cl.ClampMin
        return ip.apply_inplace(op, "clamp_min_", self, min)

    def clamp_max_(self, max):
        op = cl.ClampMaxTensor if isinstance(max, _T) else cl.ClampMax
        return ip.apply_inplace(op, "clamp_max_", self, max)

    def cumprod_(self, dim, *, dtype=None):
        return ip.apply_inplace(cum.Cumprod, "cumprod_", self, cum.inplace_dim(self, dim, dtype))

    def zero_(self): return ip.zero_(self)
    def fill_(self, value): return ip.fill_(self, value)
    def copy_(self, src): return ip.copy_(self, src)

    def tril_(self, diagonal=0):
        return ip.apply_inplace(tri.Tril, "tril_", self, diagonal)

    def triu_(self, diagonal=0):
        return ip.apply_inplace(tri.Triu, "triu_", self, diagonal)

    def masked_fill_(self, mask, value):
        return ip.apply_inplace(sh.MaskedFill, "masked_fill_", self, mask, _num(value))

    # ---- constructors from a tensor ------------------------------------------------------
    def stride(self, dim=None):
        """Elements to step in each dim (PyTorch's strides: a contiguous tensor's are the
        products of the sizes after each dim)."""
        a = self._data
        if a.flags.c_contiguous:
            st, acc = [], 1
            for n in reversed(a.shape):
                st.append(acc)
                acc *= max(n, 1)
            st = tuple(reversed(st))
        else:
            st = tuple(s // a.itemsize for s in a.strides)
        if dim is None:
            return st
        if not a.ndim:
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        return st[red.dims_of(dim, a.ndim)[0]]

    def new_zeros(self, *size, dtype=None): return fac.zeros(*size, dtype=dtype or self.dtype)
    def new_ones(self, *size, dtype=None): return fac.ones(*size, dtype=dtype or self.dtype)
    def inverse(self): return la.inverse(self)

    def det(self):
        return dtm.det(self)

    def new_tensor(self, data, dtype=None): return fac.tensor(data, dtype=dtype or self.dtype)

    def new_full(self, size, fill_value, dtype=None):
        return fac.full(size, fill_value, dtype=dtype or self.dtype)

    def uniform_(self, a=0.0, b=1.0, *, generator=None):
        return fac.uniform_(self, a, b, generator=generator)

    def normal_(self, mean=0.0, std=1.0, *, generator=None):
        return fac.normal_(self, mean, std, generator=generator)

    def random_(self, from_=0, to=None, *, generator=None):
        return fac.random_(self, from_, to, generator=generator)

    def exponential_(self, lambd=1.0, *, generator=None):
        return fac.exponential_(self, lambd, generator=generator)

    def multinomial(self, num_samples, replacement=False, *, generator=None):
        return smp.multinomial(self, num_samples, replacement, generator=generator)

    def bernoulli_(self, p=0.5, *, generator=None):
        return fac.bernoulli_(self, p, generator=generator)

    def bernoulli(self, p=None, *, generator=None):
        return fac.bernoulli(self, p, generator=generator)


def _t(self, other):
    return _op.scalar(other, self)


def _float_kernel(kernel: str, t) -> None:
    """PyTorch's NotImplementedError for a float-only kernel given an integer tensor."""
    if t._data.dtype.kind not in "fc":
        raise NotImplementedError(f"\"{kernel}\" not implemented for "
                                  f"'{t.dtype.legacy.replace('Tensor', '')}'")


def _ti(self, other, fn: str):
    """An in-place method's operand: checked as PyTorch's parser would, a number wrapped."""
    return _op.scalar(_other(other, fn), self)


def _is_t(value) -> bool:
    return isinstance(value, _T)


def _other(value, fn: str, param: str = "other", numbers: bool = True):
    """A method's tensor argument as PyTorch's parser checks it (position 1: `self` is not
    counted): `t.add(np.ones(3))` is a TypeError, not numpy arithmetic."""
    if isinstance(value, _T):
        return value
    return refuse(value, fn, param, 1, numbers)


def _num(v):
    return v.item() if hasattr(v, "_data") else v


def _rounding_mode(kwargs: dict, fn: str = "div_") -> tuple:
    """(rounding_mode,) from div_'s keyword arguments, refusing others as Python would."""
    extra = [k for k in kwargs if k != "rounding_mode"]
    if extra:
        raise TypeError(f"{fn}() got an unexpected keyword argument '{extra[0]}'")
    return (kwargs["rounding_mode"],)
