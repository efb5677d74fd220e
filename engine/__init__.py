"""gradstep's autograd engine, presenting PyTorch's namespace: use it as `import engine as torch`.

Tensors hold numpy arrays; ops record a graph of grad_fn nodes with PyTorch's names;
`backward()` walks it iteratively. `engine.nn`, `engine.optim` and
`engine.autograd.functional` are loaded on first use.

Example:
    >>> import gradstep.engine as torch
    >>> x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    >>> y = (x * x).sum()
    >>> y.backward()
    >>> x.grad.tolist()
    [2.0, 4.0, 6.0]
"""
from __future__ import annotations

import functools as _functools
import importlib

import numpy as _np

from . import autograd, linalg, special
from .autograd.anomaly import (is_anomaly_check_nan_enabled, is_anomaly_enabled,
                               set_anomaly_enabled)
from .device import (accelerator, backends, cuda, device, get_default_device,
                     set_default_device)
from .dtypes import (bool, cdouble, cfloat, complex64, complex128, double, dtype, float,
                     float16, float32, float64, get_default_dtype, half, int, int8, int16,
                     int32, int64, long, promote_types, set_default_dtype, short, uint8)
from .factories import (allclose, range_inclusive, arange, as_tensor, bernoulli, empty, empty_like,
                        equal, eye, from_numpy, full, full_like, isclose, linspace, logspace,
                        manual_seed,
                        normal, ones, ones_like, rand, rand_like, randint, randn, randn_like,
                        randperm, seed, initial_seed, tensor, zeros, zeros_like)
from .deprecated import scalar_first as _scalar_first
from .out_arg import accepts_out as _accepts_out
from .generator import Generator, default_generator
from .legacy_types import CPU as _LEGACY
from .grad_mode import (enable_grad, inference_mode, is_grad_enabled,
                        is_inference_mode_enabled, no_grad, set_grad_enabled)
from .ops.binary_math import copysign, float_power, fmax, fmin, heaviside, hypot
from .ops.arithmetic import add, div, mul, neg, pow, rsub, square, sub
from .ops.comparison import (eq, floor_divide, ge, gt, isfinite, isinf, isnan, le, logical_and,
                             logical_not, logical_or, lt, ne, remainder)
from .ops.clamping import clamp, clamp_, clamp_max, clamp_min, clip, clip_, maximum, minimum
from .ops.cumulative import cummax, cummin, cumprod, diff
from .ops.elementwise import (abs, asin, atan, ceil, cos, cosh, erf, exp, exp2, expm1, floor,
                              log, log1p, log2, log10, reciprocal, relu, round, rsqrt, sgn,
                              sigmoid, sign, sin, sinh, sqrt, tan, tanh, trunc, where)
from .ops.extrema import amax, amin, aminmax
from .ops.fused import addcdiv, addcmul, lerp, logaddexp
from .ops.inverse_trig import acos, atan2
from .ops.determinant import det
from .ops.complex import angle, complex, conj, imag, polar, real, view_as_complex, view_as_real
from .ops.linalg import bmm, dot, inverse, matmul, mm, mv, outer
from .ops.attention import baddbmm
from .ops.nn_ops import addmm
from .ops.moments import std_mean, var_mean
from .ops.reduction import all, any, argmax, argmin, cumsum, max, mean, min, norm, prod, sum
from .ops.stats import log_softmax, logsumexp, softmax, std, var
from .ops.join import cat, chunk, split, stack, unbind, unsafe_chunk, unsafe_split
from .ops.rearrange import (hstack, masked_fill, moveaxis, movedim, nonzero, roll, tile,
                            unflatten, vstack)
from .ops.special import deg2rad, erfinv, frac, logit, nan_to_num, rad2deg, sinc
from .ops.selection import argsort, gather, index_select, sort, topk
from .ops.shape import (broadcast_shapes, broadcast_tensors, clone, expand, flatten, flip,
                        narrow, permute, repeat, reshape, select, squeeze, t, transpose,
                        unsqueeze)
from .ops.triangular import diag, diagonal, trace, tril, triu
from .ops.counting import bincount, count_nonzero, histc, unique
from .ops.nansum import nansum
from .ops.einsum import einsum
from .ops.grids import cartesian_prod, meshgrid, tensordot
from .ops.padding import constant_pad_nd
from .ops.rounding import fmod
from .ops.order_stats import kthvalue, median, mode
from .ops.scatter import scatter, scatter_add
from .ops.index_writes import index_add, index_copy, index_put, index_put_
from .ops.scatter_reduce import scatter_reduce
from .ops.xlogy import xlogy
from .ops.binary_inplace import xlogy_
from .ops.vectors import cdist, cross, dist, kron
from .sampling import multinomial
from .serialization import load, save
from .tensor import Size, Tensor
from .layouts import layout, sparse_coo, strided
from .type_info import finfo, iinfo

# PyTorch never warns about nan/inf arithmetic; numpy would, from inside the engine
_np.seterr(all="ignore")

# the legacy tensor types (legacy_types.py): torch.FloatTensor(2, 3), x.type(torch.LongTensor)
FloatTensor, DoubleTensor, HalfTensor = (_LEGACY[n] for n in ("FloatTensor", "DoubleTensor",
                                                              "HalfTensor"))
LongTensor, IntTensor, ShortTensor, CharTensor, ByteTensor, BoolTensor = (
    _LEGACY[n] for n in ("LongTensor", "IntTensor", "ShortTensor", "CharTensor", "ByteTensor",
                         "BoolTensor"))

true_divide = divide = div
range = range_inclusive   # torch.range (this module itself never loops over Python's range)
multiply = mul
subtract = sub     # PyTorch gave subtract no scalar-first overload: only add and sub have it
add = _scalar_first("alpha", ("other",), method=False)(add)
sub = _scalar_first("alpha", ("other",), method=False)(sub)
addcmul = _scalar_first("value", ("tensor1", "tensor2"), method=False)(addcmul)
addcdiv = _scalar_first("value", ("tensor1", "tensor2"), method=False)(addcdiv)
# out= on the arithmetic a tutorial writes it on (out_arg.py)
add, sub, mul, div = (_accepts_out(f, f.__name__) for f in (add, sub, mul, div))
true_divide = divide = div
multiply = mul
subtract = sub
concat = concatenate = cat
negative = neg
absolute = abs
arccos = acos
arctan2 = atan2
fix = trunc
__version__ = "2.13.0+cpu"     # the CPU build's version string, as its wheel reports


# torch.exp(2.0), torch.sum(np_array): PyTorch's argument parser refuses a non-tensor input
# of these functions with a TypeError naming the function (foreign_operands.tensor_input)
def _refuse_non_tensors(names: str) -> None:
    from .foreign_operands import tensor_input
    for name in names.split():
        globals()[name] = tensor_input(globals()[name], Tensor, name)


_refuse_non_tensors("""abs acos asin atan ceil cos cosh erf exp exp2 expm1 floor log log1p log2
    log10 neg reciprocal relu round rsqrt sgn sigmoid sign sin sinh sqrt square tan tanh trunc
    sum mean prod negative absolute arccos fix deg2rad rad2deg frac sinc logit nan_to_num
    nansum count_nonzero diff aminmax erfinv""")


# torch.exp_(x) & co.: the torch namespace's spellings of Tensor's in-place methods (the same
# grad_fns; version bumps and leaf checks happen in the method)
def abs_(input): return input.abs_()
def acos_(input): return input.acos_()
def asin_(input): return input.asin_()
def atan_(input): return input.atan_()
def ceil_(input): return input.ceil_()
def cos_(input): return input.cos_()
def cosh_(input): return input.cosh_()
def deg2rad_(input): return input.deg2rad_()
def detach_(input): return input.detach_()
def erf_(input): return input.erf_()
def exp_(input): return input.exp_()
def exp2_(input): return input.exp2_()
def expm1_(input): return input.expm1_()
def fix_(input): return input.fix_()
def floor_(input): return input.floor_()
def frac_(input): return input.frac_()
def log_(input): return input.log_()
def log10_(input): return input.log10_()
def log1p_(input): return input.log1p_()
def log2_(input): return input.log2_()
def logit_(input, eps=None): return input.logit_(eps)
def neg_(input): return input.neg_()
def rad2deg_(input): return input.rad2deg_()
def reciprocal_(input): return input.reciprocal_()
def round_(input, decimals=None): return input.round_(decimals)
def rsqrt_(input): return input.rsqrt_()
def sigmoid_(input): return input.sigmoid_()
def sin_(input): return input.sin_()
def sinc_(input): return input.sinc_()
def sinh_(input): return input.sinh_()
def sqrt_(input): return input.sqrt_()
def square_(input): return input.square_()
def tan_(input): return input.tan_()
def tanh_(input): return input.tanh_()
def trunc_(input): return input.trunc_()
def zero_(input): return input.zero_()


def nan_to_num_(input, nan=0.0, posinf=None, neginf=None):
    return input.nan_to_num_(nan, posinf, neginf)


_INPLACE = """abs_ acos_ asin_ atan_ ceil_ cos_ cosh_ deg2rad_ detach_ erf_ exp_ exp2_ expm1_
    fix_ floor_ frac_ log_ log10_ log1p_ log2_ logit_ nan_to_num_ neg_ rad2deg_ reciprocal_
    round_ rsqrt_ sigmoid_ sin_ sinc_ sinh_ sqrt_ square_ tan_ tanh_ trunc_ zero_"""
_refuse_non_tensors(_INPLACE)

# out= on the functions tutorials and the docs write it with (out_arg.py); after the wrapping
# above, so the refusal of non-tensor inputs comes first, as PyTorch's parser checks them first
for _name in ("exp log sin cos tanh sigmoid sqrt abs neg pow matmul mm bmm sum mean cat stack "
              "clamp maximum minimum").split():
    globals()[_name] = _accepts_out(globals()[_name], _name)
del _name

# the math constants torch re-exports (torch.pi in a formula is a tutorial staple)
pi = 3.141592653589793
e = 2.718281828459045
inf = _np.inf
nan = _np.nan
newaxis = None


def is_complex(input) -> bool:
    """True for tensors of a complex dtype (`torch.is_complex`)."""
    return input.is_complex()


def is_tensor(obj) -> bool:
    """True for engine tensors (`torch.is_tensor`)."""
    return isinstance(obj, Tensor)


def numel(t) -> int:
    return t.numel()


def set_printoptions(*args, **kwargs) -> None:
    """PyTorch's print options (precision, threshold, edgeitems, linewidth, sci_mode, profile)."""
    from .printing import set_printoptions as _set
    _set(*args, **kwargs)


# torch.selu & co. are nn.functional's activations (and torch.conv2d & co. its convolutions
# and max pooling) under their torch names (imported with nn)
_NN_SPELLINGS = ("selu", "celu", "prelu", "threshold", "selu_", "celu_", "threshold_",
                 "relu_", "conv1d", "conv2d", "max_pool2d", "max_pool1d", "avg_pool1d",
                 "adaptive_avg_pool1d", "adaptive_max_pool1d", "hardshrink", "rrelu",
                 "rrelu_")


def __getattr__(name: str):
    # nn and optim are built on the core by their own package; import them when first used
    if name in ("nn", "optim", "utils", "func", "distributions"):
        return importlib.import_module(f".{name}", __name__)
    if name == "vmap":      # torch.vmap is torch.func.vmap
        return importlib.import_module(".func", __name__).vmap
    if name in _NN_SPELLINGS:
        functional = importlib.import_module(".nn.functional", __name__)
        if name == "adaptive_max_pool1d":    # torch's spelling always returns the indices
            return _functools.partial(functional.adaptive_max_pool1d, return_indices=True)
        if not name.endswith("_"):
            return getattr(functional, name)
        return _functools.partial(getattr(functional, name[:-1]), inplace=True)
    # the engine is the `torch` a program imports: its missing names read as PyTorch's do
    raise AttributeError(f"module 'torch' has no attribute {name!r}")


__all__ = [
    # tensors, dtypes
    "Tensor", "Size", "dtype", "tensor", "as_tensor", "from_numpy", "is_tensor", "numel",
    "float32", "float64", "float16", "half", "float", "double", "int64", "long", "int32", "int",
    "int16", "short", "int8", "uint8", "bool", "complex64", "complex128", "cfloat", "cdouble",
    "get_default_dtype", "set_default_dtype",
    "promote_types", "finfo", "iinfo", "FloatTensor", "DoubleTensor", "HalfTensor", "LongTensor",
    "IntTensor", "ShortTensor", "CharTensor", "BoolTensor", "ByteTensor", "device", "cuda",
    "backends", "accelerator", "set_default_device", "get_default_device",
    "layout", "strided", "sparse_coo",
    # constructors and random
    "zeros", "ones", "full", "empty", "zeros_like", "ones_like", "full_like", "empty_like",
    "arange", "range", "linspace", "logspace", "eye", "rand", "randn", "randint", "randperm",
    "rand_like",
    "randn_like", "normal", "bernoulli", "multinomial", "manual_seed", "seed", "initial_seed",
    "Generator", "default_generator",
    # grad mode
    "no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled", "inference_mode",
    "is_inference_mode_enabled", "is_anomaly_enabled", "is_anomaly_check_nan_enabled",
    "set_anomaly_enabled",
    # elementwise
    "add", "sub", "subtract", "rsub", "mul", "multiply", "div", "divide", "true_divide",
    "floor_divide", "remainder", "fmod", "pow", "neg", "negative", "abs", "absolute", "exp",
    "expm1",
    "log", "log1p", "log2", "log10", "sqrt", "rsqrt", "square", "sin", "cos", "tan", "sinh",
    "cosh", "asin", "atan", "tanh", "sigmoid", "relu", "sign", "sgn", "reciprocal", "clamp",
    "clamp_min", "clamp_max", "clip", "clamp_", "clip_",
    "maximum", "minimum", "where", "floor", "ceil", "round", "addcmul", "addcdiv", "lerp",
    "logaddexp", "acos", "arccos", "atan2", "arctan2", "masked_fill", "eq", "ne", "lt", "le",
    "gt", "ge", "logical_and", "logical_or", "logical_not", "isnan", "isinf", "isfinite", "equal",
    "allclose", "isclose",
    # reductions
    "sum", "mean", "max", "min", "prod", "norm", "var", "std", "argmax", "argmin", "softmax",
    "log_softmax", "logsumexp", "all", "any", "cumsum", "exp2", "erf", "trunc", "gather",
    "index_select", "sort", "argsort", "topk", "amax", "amin", "cumprod", "cummax", "cummin",
    "dist", "cdist",
    "std_mean", "var_mean", "nonzero", "unique", "bincount", "histc", "kthvalue", "median",
    "mode", "scatter", "scatter_add", "scatter_reduce", "index_add", "index_copy", "index_put",
    "index_put_",
    # linear algebra
    "complex", "polar", "view_as_real", "view_as_complex", "real", "imag", "conj", "angle",
    "is_complex",
    "matmul", "mm", "mv", "dot", "bmm", "baddbmm", "addmm", "outer", "inverse", "det", "linalg",
    "cross",
    "trace", "einsum", "meshgrid", "cartesian_prod", "tensordot",
    # shape
    "cat", "concat", "concatenate", "stack", "reshape", "flatten", "squeeze", "unsqueeze",
    "transpose", "t", "permute", "expand", "repeat", "flip", "narrow", "select", "split",
    "chunk", "unbind", "unsafe_split", "unsafe_chunk", "clone", "broadcast_tensors",
    "broadcast_shapes", "tril", "triu", "diag",
    "diagonal", "roll", "movedim", "moveaxis", "tile", "hstack", "vstack", "unflatten",
    "constant_pad_nd", "xlogy", "xlogy_", "hypot", "copysign", "fmax", "fmin", "fix", "deg2rad",
    "heaviside", "float_power", "nansum", "count_nonzero", "diff", "kron",
    "aminmax",
    "rad2deg", "frac", "sinc", "logit", "nan_to_num", "erfinv",
    # in place
    "abs_", "acos_", "asin_", "atan_", "ceil_", "cos_", "cosh_", "deg2rad_", "detach_", "erf_",
    "exp_", "exp2_", "expm1_", "fix_", "floor_", "frac_", "log_", "log10_", "log1p_", "log2_",
    "logit_", "nan_to_num_", "neg_", "rad2deg_", "reciprocal_", "round_", "rsqrt_", "sigmoid_",
    "sin_", "sinc_", "sinh_", "sqrt_", "square_", "tan_", "tanh_", "trunc_", "zero_",
    # nn.functional's activations under their torch names (_NN_SPELLINGS)
    "selu", "celu", "prelu", "threshold", "selu_", "celu_", "threshold_", "relu_", "conv1d",
    "conv2d",
    "max_pool2d", "max_pool1d", "avg_pool1d", "adaptive_avg_pool1d", "adaptive_max_pool1d",
    "hardshrink", "rrelu", "rrelu_",
    # subpackages and printing
    "autograd", "nn", "optim", "utils", "func", "distributions", "special", "vmap",
    "set_printoptions", "save", "load",
    # constants
    "pi", "e", "inf", "nan", "newaxis",
]
