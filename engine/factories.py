"""Tensor constructors and the random generator (`torch.tensor`, `torch.zeros`, `torch.randn`,
`torch.manual_seed`, ...).

Python floats become float32 (the default dtype), ints int64, bools bool, as in PyTorch.
Random constructors draw from `generator.py`, which follows PyTorch's CPU algorithms, so
`manual_seed(s)` reproduces PyTorch's numbers.
"""
from __future__ import annotations

import math

import numpy as np

from . import _events, _libm, dtypes, messages
from .device import place_new as place
from .out_arg import written_out
from .generator import Generator, default_generator
from .tensor import Tensor, _plain, counter, new_tensor


# factories with one signature, whose argument parser names a requires_grad that is no bool
_ONE_SIGNATURE = {"tensor", "zeros", "ones", "empty", "full", "zeros_like", "ones_like",
                  "empty_like", "full_like"}


def _made(t: Tensor, how: str, requires_grad: bool = False) -> Tensor:
    if requires_grad is not None and not isinstance(requires_grad, (bool, np.bool_)) \
            and how in _ONE_SIGNATURE:
        raise TypeError(f"{how}(): argument 'requires_grad' must be bool, not "
                        f"{type(requires_grad).__name__}")
    if requires_grad:
        if t._data.dtype.kind not in "fc":
            raise RuntimeError(messages.INT_REQUIRES_GRAD)
        t._rg = True
    if _events.listener is not None:
        _events.listener.on_tensor(t, how)
    return t


def _np_dtype(dtype, default=None):
    if dtype is None:
        return default
    return dtype.np if isinstance(dtype, dtypes.dtype) else np.dtype(dtype)


def _size(size, how: str = "") -> tuple:
    """The shape a factory's `*size` asks for; `how` names the factory in PyTorch's errors."""
    _check_ints(size, how)
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = size[0]
    size = tuple(int(s) for s in size)
    if size and min(size) < 0:
        if how == "zeros":     # PyTorch's zeros checks the sizes in its own words
            raise RuntimeError("zeros: Dimension size must be non-negative.")
        bad = next(n for n in size if n < 0)
        raise RuntimeError(f"Trying to create tensor with negative dimension {bad}: "
                           f"{list(size)}")
    return size


def _check_ints(size: tuple, how: str) -> None:
    """PyTorch's argument parser refuses a size that is not whole numbers (`torch.zeros(n / 2)`)
    in words that depend on where the bad value sits; int-like values (numpy integers, an
    integer tensor, True in a list of sizes) pass, as there."""
    if not how:
        return
    head = f"{how}(): argument 'size'"
    if len(size) == 1 and not isinstance(size[0], (tuple, list)):
        if isinstance(size[0], bool) or not hasattr(size[0], "__index__"):
            raise TypeError(f"{head} (position 1) must be tuple of ints, not "
                            f"{messages.parser_type_name(size[0])}")
        return
    items = size[0] if len(size) == 1 else size
    for pos, item in enumerate(items):
        if hasattr(item, "__index__"):
            continue
        if pos == 0:
            raise TypeError(f"{head} (position 1) must be tuple of ints, but found element of "
                            f"type {messages.parser_type_name(item)} at pos 0")
        raise TypeError(f'{head} failed to unpack the object at pos {pos + 1} with error "type '
                        f'must be tuple of ints,but got {messages.parser_type_name(item)}"')


def _ragged(data, shape: list, dim: int = 0, kind: str = "f") -> Exception | None:
    """PyTorch's complaint about nested lists of uneven lengths: the shape is taken from the
    first element at each depth, then every sequence is checked against it, depth first. A
    sequence where a number belongs is refused as the element type (numpy `kind`) reads it."""
    if dim == len(shape):
        if not isinstance(data, (list, tuple)):
            return None     # numpy's own words will do
        name = type(data).__name__
        return TypeError(f"must be real number, not {name}" if kind in "fc" else
                         f"'{name}' object cannot be interpreted as an integer")
    if not isinstance(data, (list, tuple)):
        return TypeError("not a sequence")
    if len(data) != shape[dim]:
        return ValueError(f"expected sequence of length {shape[dim]} at dim {dim} "
                          f"(got {len(data)})")
    for item in data:
        problem = _ragged(item, shape, dim + 1, kind)
        if problem:
            return problem
    return None


def _array(data, dtype=None, kind: str = "", source=None) -> np.ndarray:
    """np.array(data), its ValueError for uneven data told in PyTorch's words about `source`
    (the user's data, tuples and all, when `data` is its plain copy)."""
    try:
        return np.array(data, dtype=dtype)
    except ValueError:
        data = data if source is None else source
        shape, first = [], data
        while isinstance(first, (list, tuple)) and first:
            shape.append(len(first))
            first = first[0]
        problem = _ragged(data, shape, 0, kind or np.dtype(dtype).kind)
        if problem is None:
            raise
        raise problem from None


def _check_shape(data) -> None:
    """PyTorch reads the shape from the first item at each depth before anything else; a
    string there is a sequence of strings without end: "too many dimensions 'str'"."""
    if isinstance(data, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    first = data
    while isinstance(first, (list, tuple)) and first:
        first = first[0]
        if isinstance(first, str) and first:    # (bytes' items are ints: one more depth)
            raise ValueError("too many dimensions 'str'")


def _typed(data):
    """(data with tensors as arrays, the dtype PyTorch infers for it or None): like PyTorch,
    a numpy scalar or a tensor inside the data keeps its own dtype, and a sequence promotes
    its items' dtypes (so [np.float64(1.0), 2.0] is float64, a Python float alone float32)."""
    if isinstance(data, Tensor):
        return data._data, data.dtype
    if isinstance(data, np.generic):
        return data, dtypes.FROM_NP.get(data.dtype)
    if isinstance(data, (list, tuple)):
        items, found = [], None
        for item in data:
            plain, dt = _typed(item)
            items.append(plain)
            if dt is None:
                return items + [_plain(d) for d in data[len(items):]], None
            found = dt if found is None else dtypes.promote_types(found, dt)
        return items, found or dtypes.get_default_dtype()
    if isinstance(data, bool):
        return data, dtypes.bool
    if isinstance(data, int):
        return data, dtypes.int64
    if isinstance(data, float):
        return data, dtypes.get_default_dtype()
    if isinstance(data, complex):
        return data, dtypes.default_complex()
    if isinstance(data, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    if data is None or isinstance(data, (dict, set, frozenset)):
        raise RuntimeError(f"Could not infer dtype of {type(data).__name__}")
    return data, None


def _infer(data) -> np.ndarray:
    """numpy array from Python data with PyTorch's dtype inference."""
    if isinstance(data, np.ndarray):
        return data.copy()
    _check_shape(data)
    plain, dt = _typed(data)
    arr = _array(plain, kind=dt.np.kind if dt is not None else "f", source=data)
    if dt is not None and arr.dtype != object:
        return arr if arr.dtype == dt.np else arr.astype(dt.np)
    if arr.dtype.kind == "f":
        return arr.astype(dtypes.get_default_dtype().np)
    if arr.dtype.kind in "iu":
        return arr.astype(np.int64)
    if arr.dtype.kind == "b":
        return arr
    if arr.dtype == object:
        raise TypeError(f"Could not infer dtype of {type(data).__name__}")
    return arr


def tensor(data, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    """A new tensor holding a copy of `data` (`torch.tensor`).

    Example:
        >>> tensor([1, 2]).dtype, tensor([1.0, 2]).dtype, tensor(True).dtype
        (torch.int64, torch.float32, torch.bool)
    """
    place(device)
    if isinstance(data, Tensor):
        messages.warn(messages.COPY_CONSTRUCT)
    if dtype is None:
        arr = _infer(data)
    else:   # straight to the target type: 1e300 must not pass through float32 first
        _check_shape(data)
        arr = _array(_plain(data), _np_dtype(dtype), source=data)
    return _made(new_tensor(arr), "tensor", requires_grad)


def as_tensor(data, dtype=None, device=None) -> Tensor:
    place(device)
    if isinstance(data, Tensor):     # the same tensor, or a converted one on its graph
        return data if dtype is None else data.to(dtype)
    return tensor(data, dtype=dtype)


def from_numpy(a: np.ndarray) -> Tensor:
    """A tensor sharing memory with numpy array `a` (`torch.from_numpy`)."""
    return _made(new_tensor(a), "from_numpy")


def _sizes(positional: tuple, keyword, how: str) -> tuple:
    """A factory's size given either way: `zeros(2, 3)`, `zeros((2, 3))` or `zeros(size=(2, 3))`
    (what the docs' and d2l's examples write)."""
    if keyword is None:
        return positional
    if positional:
        got = ", ".join([type(s).__name__ for s in positional]
                        + [f"size={type(keyword).__name__}"])
        raise TypeError(f"{how}() received an invalid combination of arguments - got ({got}), "
                        f"but expected a size given once, by position or as size=")
    return (keyword,)


def _filled(value, size, dtype, requires_grad, how) -> Tensor:
    npd = _np_dtype(dtype, dtypes.get_default_dtype().np)
    return _made(new_tensor(np.full(_size(size, how), value, dtype=npd)), how, requires_grad)


def zeros(*sizes, size=None, dtype=None, device=None, requires_grad=False,
          out=None) -> Tensor:
    place(device)
    made = _filled(0, _sizes(sizes, size, "zeros"), dtype, requires_grad, "zeros")
    return made if out is None else written_out(out, made, "zeros")


def ones(*sizes, size=None, dtype=None, device=None, requires_grad=False,
          out=None) -> Tensor:
    place(device)
    made = _filled(1, _sizes(sizes, size, "ones"), dtype, requires_grad, "ones")
    return made if out is None else written_out(out, made, "ones")


def empty(*sizes, size=None, dtype=None, device=None, requires_grad=False,
          out=None) -> Tensor:
    place(device)
    made = _filled(0, _sizes(sizes, size, "empty"), dtype, requires_grad, "empty")
    return made if out is None else written_out(out, made, "empty")


def full(size, fill_value, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    place(device)
    if dtype is None:
        dtype = dtypes.scalar_dtype(fill_value)
    return _filled(fill_value, (size,), dtype, requires_grad, "full")


def zeros_like(t, *, dtype=None, requires_grad=False) -> Tensor:
    return _filled(0, t.shape, dtype or t.dtype, requires_grad, "zeros_like")


def ones_like(t, *, dtype=None, requires_grad=False) -> Tensor:
    return _filled(1, t.shape, dtype or t.dtype, requires_grad, "ones_like")


def empty_like(t, *, dtype=None, requires_grad=False) -> Tensor:
    return _filled(0, t.shape, dtype or t.dtype, requires_grad, "empty_like")


def full_like(t, fill_value, *, dtype=None, requires_grad=False) -> Tensor:
    return _filled(fill_value, t.shape, dtype or t.dtype, requires_grad, "full_like")


def arange(start, end=None, step=1, *, dtype=None, device=None, requires_grad=False):
    """Values from start (default 0) up to end, exclusive (`torch.arange`)."""
    place(device)
    if end is None:
        start, end = 0, start
    is_float = any(isinstance(v, float) for v in (start, end, step))
    default = dtypes.get_default_dtype().np if is_float else np.int64
    arr = np.arange(start, end, step).astype(_np_dtype(dtype, default))
    return _made(new_tensor(arr), "arange", requires_grad)


_NO_END = object()


def range_inclusive(start, end=_NO_END, step=1, *, dtype=None, device=None,
                    requires_grad=False) -> Tensor:
    """Values from start to end *inclusive* (`torch.range`, deprecated in PyTorch since 0.4 but
    still in old tutorials): floats of the default dtype unless told, each `start + i * step`
    computed in float64 and rounded once, as PyTorch's kernel does."""
    if end is _NO_END:
        raise TypeError('range() missing 1 required positional arguments: "end"')
    messages.warn("torch.range is deprecated and will be removed in a future release because "
                  "its behavior is inconsistent with Python's range builtin. Instead, use "
                  "torch.arange, which produces values in [start, end).")
    place(device)
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (step > 0 and end < start) or (step < 0 and end > start):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    n = int((end - start) / step) + 1           # the C++ trunc of a double quotient
    npd = _np_dtype(dtype, dtypes.get_default_dtype().np)
    if npd.kind in "iub":
        values = int(start) + np.arange(n, dtype=np.int64) * int(step)
    else:
        values = start + np.arange(n, dtype=np.float64) * step
    return _made(new_tensor(values.astype(npd)), "range", requires_grad)


def linspace(start, end, steps, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    """`steps` values from `start` to `end`, computed as PyTorch computes them.

    Example:
        >>> linspace(0, 1, 5).tolist()
        [0.0, 0.25, 0.5, 0.75, 1.0]
    """
    place(device)
    npd = _np_dtype(dtype, dtypes.get_default_dtype().np)
    return _made(new_tensor(_linspace_values(start, end, int(steps), np.dtype(npd))),
                 "linspace", requires_grad)


def _linspace_values(start, end, steps: int, npd: np.dtype) -> np.ndarray:
    """PyTorch's kernel: the first half counts up from `start`, the second half down from
    `end` (so both ends are exact), each value `start + step * i` as one fused multiply-add
    in the output's type (a double step for integer outputs, truncated). A float32 product
    is exact in float64 and a float64 one nearly so in long double, so one rounding from
    there gives PyTorch's values (all of 309 random float32 cases, 308 of them in float64)."""
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    if steps == 0:
        return np.empty(0, npd)
    calc = npd if npd.kind == "f" else np.dtype(np.float64)
    s, e = calc.type(start), calc.type(end)
    if steps == 1:
        return np.array([s]).astype(npd)
    step = (e - s) / calc.type(steps - 1)
    wide = np.float64 if calc.itemsize < 8 else np.longdouble
    i = np.arange(steps, dtype=wide)
    half = steps // 2
    out = np.concatenate([wide(s) + wide(step) * i[:half],
                          wide(e) - wide(step) * (steps - 1 - i[half:])])
    return out.astype(calc).astype(npd)


def logspace(start, end, steps, base=10.0, *, dtype=None, device=None,
             requires_grad=False) -> Tensor:
    """`steps` powers of `base`, the exponents evenly spaced from `start` to `end`.

    Example:
        >>> logspace(0, 2, 3).tolist()
        [1.0, 10.0, 100.0]
    """
    npd = np.dtype(_np_dtype(dtype, dtypes.get_default_dtype().np))
    start, end = (float(v) if isinstance(v, Tensor) else v for v in (start, end))
    return _made(new_tensor(_logspace_values(start, end, int(steps), float(base), npd)),
                 "logspace", requires_grad)


def _logspace_values(start, end, steps: int, base: float, npd: np.dtype) -> np.ndarray:
    """PyTorch's serial kernel: start and end in the output's type, their difference over
    steps - 1 as a double step (a float one for integer outputs), the first half counting
    up from start and the second down from end, then a double pow (float for integers).

    The pow is the C library's (`math.pow`), as PyTorch's `std::pow` is: numpy's `np.power`
    picks a vectorised kernel by the CPU's features at run time, and on AVX-512 machines that
    kernel's last bit differs from the C library's in about one value in twenty
    (NOTE [bits that depend on the CPU] in _libm.py)."""
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    if steps <= 1:
        return np.array([base ** float(start)] * steps).astype(npd)
    calc = np.dtype(np.float64) if npd.kind == "f" else np.dtype(np.float32)
    s, e = npd.type(start), npd.type(end)
    step = calc.type(e - s) / calc.type(steps - 1)
    i = np.arange(steps, dtype=calc)
    half = steps // 2
    exps = np.concatenate([calc.type(s) + step * i[:half],
                           calc.type(e) - step * (steps - 1 - i[half:])])
    powers = _libm.apply(math.pow, np.full(steps, calc.type(base), np.float64), exps)
    # the float pow of integer outputs: the double result rounded once to float32
    return powers.astype(calc).astype(npd)


def eye(n, m=None, *, dtype=None, device=None, requires_grad=False) -> Tensor:
    place(device)
    npd = _np_dtype(dtype, dtypes.get_default_dtype().np)
    return _made(new_tensor(np.eye(n, m, dtype=npd)), "eye", requires_grad)


# ---- random ---------------------------------------------------------------------------------
def manual_seed(seed: int) -> Generator:
    """Seed the generator (`torch.manual_seed`); later draws repeat PyTorch's values.

    Example:
        >>> _ = manual_seed(0); randn(3).tolist() == tensor([1.5409960746765137,
        ...     -0.293428897857666, -2.1787893772125244]).tolist()
        True
    """
    return default_generator.manual_seed(seed)


def seed() -> int:
    return default_generator.initial_seed()


def initial_seed() -> int:
    return default_generator.initial_seed()


def _gen(generator) -> Generator:
    return default_generator if generator is None else generator


def _float_type(dtype):
    npd = _np_dtype(dtype, dtypes.get_default_dtype().np)
    # PyTorch draws half precision through float32; the others natively
    return npd, (npd if npd in (np.float32, np.float64) else np.dtype(np.float32))


def _part(draw):
    """The real dtype a draw is made in (a complex one's parts)."""
    return {np.dtype(np.complex64): np.dtype(np.float32),
            np.dtype(np.complex128): np.dtype(np.float64)}.get(np.dtype(draw), draw)


def _complex_shape(shape: tuple, npd) -> tuple:
    """A complex tensor is drawn as its parts side by side, two numbers per element."""
    return shape + (2,) if npd.kind == "c" else shape


def _as_complex(arr: np.ndarray, npd, scale: float = 1.0) -> np.ndarray:
    """Pairs of drawn parts as complex numbers of dtype `npd` (a real `npd` passes); randn's
    parts have variance 1/2 each, so that the complex number has variance 1, as PyTorch's."""
    if npd.kind != "c":
        return arr.astype(npd)
    part = np.float32 if npd == np.complex64 else np.float64
    arr = arr.astype(part)
    if scale != 1.0:
        arr = arr * part(scale)
    return np.ascontiguousarray(arr).view(npd)[..., 0]


def rand(*sizes, size=None, dtype=None, device=None, requires_grad=False, generator=None,
          out=None) -> Tensor:
    place(device)
    shape = _size(_sizes(sizes, size, "rand"), "rand")
    npd, draw = _float_type(dtype)
    drawn = _complex_shape(shape, npd)
    arr = _gen(generator).uniform(_count(drawn), _part(draw), 0.0, 1.0).reshape(drawn)
    made = _made(new_tensor(_as_complex(arr, npd)), "rand", requires_grad)
    return made if out is None else written_out(out, made, "rand")


def randn(*sizes, size=None, dtype=None, device=None, requires_grad=False, generator=None,
          out=None) -> Tensor:
    place(device)
    shape = _size(_sizes(sizes, size, "randn"), "randn")
    npd, draw = _float_type(dtype)
    drawn = _complex_shape(shape, npd)
    arr = _gen(generator).normal(_count(drawn), _part(draw), 0.0, 1.0).reshape(drawn)
    made = _made(new_tensor(_as_complex(arr, npd, 0.5 ** 0.5)), "randn", requires_grad)
    return made if out is None else written_out(out, made, "randn")


def randint(low, high=None, size=None, *, dtype=None, device=None, requires_grad=False,
            generator=None):
    place(device)
    if size is None:
        low, high, size = 0, low, high
    shape = _size((size,))
    arr = _gen(generator).integers(int(low), int(high), _count(shape)).reshape(shape)
    return _made(new_tensor(arr.astype(_np_dtype(dtype, np.int64))), "randint", requires_grad)


def randperm(n, *, dtype=None, device=None, generator=None) -> Tensor:
    place(device)
    arr = _gen(generator).permutation(int(n)).astype(_np_dtype(dtype, np.int64))
    return _made(new_tensor(arr), "randperm")


def rand_like(t, *, dtype=None) -> Tensor:
    return rand(t.shape, dtype=dtype or t.dtype)


def randn_like(t, *, dtype=None) -> Tensor:
    return randn(t.shape, dtype=dtype or t.dtype)


def normal(mean=0.0, std=1.0, size=None, *, generator=None, dtype=None, device=None,
           requires_grad=False) -> Tensor:
    """Samples of N(mean, std**2) of the given size (`torch.normal(0, 0.01, size=(2, 1))`, the
    way d2l initialises weights); with a tensor mean or std, one sample per element of their
    broadcast shape (`torch.normal(torch.zeros(3), 1.0)`)."""
    place(device)
    if isinstance(mean, Tensor) or isinstance(std, Tensor):
        return _normal_elementwise(mean, std, generator)
    shape = _size((size,))
    npd, draw = _float_type(dtype)
    arr = _gen(generator).normal(_count(shape), draw, mean, std).astype(npd).reshape(shape)
    return _made(new_tensor(arr), "normal", requires_grad)


def _normal_elementwise(mean, std, generator) -> Tensor:
    """PyTorch's normal(Tensor mean, std): standard normal draws of the broadcast shape, in
    the tensor's dtype, then scaled by std and shifted by mean, rounding as it does."""
    ref = mean if isinstance(mean, Tensor) else std
    m = mean._data if isinstance(mean, Tensor) else np.asarray(mean, ref._data.dtype)
    sd = std._data if isinstance(std, Tensor) else np.asarray(std, ref._data.dtype)
    shape = np.broadcast_shapes(m.shape, sd.shape)
    draw = ref._data.dtype
    z = _gen(generator).normal(_count(shape), draw, 0.0, 1.0).astype(draw).reshape(shape)
    return _made(new_tensor(np.asarray(z * sd + m, dtype=draw)), "normal")


def _count(shape: tuple) -> int:
    return int(np.prod(shape)) if shape else 1


def _filled_in_place(t: Tensor, values: np.ndarray, how: str) -> Tensor:
    from .ops._op import check_inference_write, check_inplace
    check_inplace(t)
    t._data[...] = values
    counter(t)[0] += 1
    check_inference_write(t)
    if _events.listener is not None:
        _events.listener.on_inplace(t, how, t._vc[0])
    return t


def uniform_(t: Tensor, a: float = 0.0, b: float = 1.0, *, generator=None) -> Tensor:
    _, draw = _float_type(t.dtype)
    values = _gen(generator).uniform(t._data.size, draw, a, b).reshape(t._data.shape)
    return _filled_in_place(t, values, "uniform_")


def bernoulli_(t: Tensor, p=0.5, *, generator=None) -> Tensor:
    """Fill `t` with 1 where a uniform draw falls below `p` (a float, or a tensor broadcast to
    t), else 0, in PyTorch's order of draws."""
    if isinstance(p, Tensor):
        p = np.broadcast_to(p._data, t._data.shape).reshape(-1)
    values = _gen(generator).bernoulli(t._data.size, p).reshape(t._data.shape)
    return _filled_in_place(t, values, "bernoulli_")


def bernoulli(input: Tensor, p=None, *, generator=None) -> Tensor:
    """A new tensor of 0s and 1s, 1 with the probability given by each element of `input`.

    Example:
        >>> import gradstep.engine as torch
        >>> torch.bernoulli(torch.tensor([0.0, 1.0]))
        tensor([0., 1.])
    """
    out = new_tensor(np.zeros(input._data.shape, dtype=input._data.dtype))
    return bernoulli_(out, input if p is None else p, generator=generator)


def random_(t: Tensor, from_=0, to=None, *, generator=None) -> Tensor:
    """Fill with integers from [from, to) (`t.random_(to)` means [0, to)); with no bounds,
    from [0, 2**mantissa] for floats and [0, max] for integers, as ATen draws them."""
    gen, n = _gen(generator), t._data.size
    if to is not None:
        values = gen.integers(int(from_), int(to), n)
    elif from_:
        values = gen.integers(0, int(from_), n)
    else:
        kind = t._data.dtype
        if kind in (np.float64, np.int64):      # 64-bit words
            span = (1 << 53) + 1 if kind == np.float64 else 1 << 63
            values = gen.random64(n) % np.uint64(span)
        else:
            span = {np.dtype(np.float32): (1 << 24) + 1, np.dtype(np.float16): (1 << 11) + 1,
                    np.dtype(np.int32): 1 << 31}.get(kind, 1 << 31)
            values = gen.random32(n) % np.uint64(span)
    return _filled_in_place(t, values.astype(t._data.dtype).reshape(t._data.shape), "random_")


def exponential_(t: Tensor, lambd: float = 1.0, *, generator=None) -> Tensor:
    """Fill `t` with draws from Exp(lambd)."""
    values = _gen(generator).exponential(t._data.size, t._data.dtype, lambd)
    return _filled_in_place(t, values.reshape(t._data.shape), "exponential_")


def normal_(t: Tensor, mean: float = 0.0, std: float = 1.0, *, generator=None) -> Tensor:
    _, draw = _float_type(t.dtype)
    values = _gen(generator).normal(t._data.size, draw, mean, std).reshape(t._data.shape)
    return _filled_in_place(t, values, "normal_")


# ---- whole-tensor comparisons -----------------------------------------------------------
def equal(a: Tensor, b: Tensor) -> bool:
    return a._data.shape == b._data.shape and bool((a._data == b._data).all())


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool:
    return bool(np.allclose(a._data, b._data, rtol, atol, equal_nan))


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False) -> Tensor:
    return new_tensor(np.isclose(a._data, b._data, rtol, atol, equal_nan))
