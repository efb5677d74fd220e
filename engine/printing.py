"""Tensor printing exactly as PyTorch 2.13 does it (`torch._tensor_str`, `torch.set_printoptions`).

`tensor_repr(t)` is both `repr(t)` and `str(t)`. The work is done by `format_array`, a pure
function of an ndarray, a dtype name, the autograd suffix flags and the print options, so it is
testable without a Tensor. The rules (4-decimal fixed point, `1024.` for integer-valued floats,
the scientific switch, summarising with `...`, line wrapping, suffixes) are PyTorch's observed
behaviour; the golden cases in `tests/golden/` pin them.
"""
from __future__ import annotations

import contextlib
import math
from dataclasses import asdict, dataclass, replace

import numpy as np

from . import _dual, dtypes

_PREFIX = "tensor("


@dataclass
class PrintOptions:
    """The knobs `torch.set_printoptions` turns (PyTorch's defaults)."""

    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: bool | None = None


_PROFILES = {
    "default": PrintOptions(),
    "short": PrintOptions(precision=2, edgeitems=2),
    "full": PrintOptions(threshold=math.inf),
}

_options = PrintOptions()


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None,
                     profile=None, sci_mode=None) -> None:
    """Change how tensors print, as `torch.set_printoptions`.

    `profile` ("default", "short", "full") resets precision, threshold, edgeitems and linewidth
    first; the other arguments then override it. Like PyTorch, `sci_mode` is set on every call,
    so leaving it out goes back to the automatic choice.

    Example:
        >>> set_printoptions(precision=2)
        >>> format_array(np.array([1.12345], np.float32), "float32")
        'tensor([1.12])'
        >>> set_printoptions(profile="default")
    """
    if profile is not None:
        base = _PROFILES[profile]
        for name in ("precision", "threshold", "edgeitems", "linewidth"):
            setattr(_options, name, getattr(base, name))
    for name, value in (("precision", precision), ("threshold", threshold),
                        ("edgeitems", edgeitems), ("linewidth", linewidth)):
        if value is not None:
            setattr(_options, name, value)
    _options.sci_mode = sci_mode


def get_printoptions() -> dict:
    """The current options as a dict that `set_printoptions(**d)` accepts.

    Example:
        >>> get_printoptions()["precision"]
        4
    """
    return asdict(_options)


@contextlib.contextmanager
def printoptions(**kwargs):
    """Temporarily change the print options (`torch._tensor_str.printoptions`)."""
    old = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**old)


def tensor_repr(t) -> str:
    """`repr(t)` of an engine Tensor, e.g. ``tensor([1., 2.], requires_grad=True)``."""
    grad_fn = t.grad_fn
    name = None if grad_fn is None else type(grad_fn).__name__
    if name == "CppFunction":   # a C++ node: PyTorch prints the last part of its name()
        name = grad_fn.name().rsplit("::", 1)[-1]
    tangent = _dual.tangents.get(t._uid) if _dual.tangents else None
    return format_array(t._data, str(t.dtype), requires_grad=t.requires_grad,
                        grad_fn_name=name,
                        default_dtype=str(dtypes.get_default_dtype()),
                        # PyTorch formats it with f"{tangent}": a 0-d one as its number
                        tangent=None if tangent is None else f"{tangent}")


tensor_str = tensor_repr  # PyTorch's str and repr of a tensor are the same text


def format_array(data: np.ndarray, dtype_name: str, *, requires_grad: bool = False,
                 grad_fn_name: str | None = None, default_dtype: str = "float32",
                 options: PrintOptions | None = None, tangent: str | None = None) -> str:
    """PyTorch's repr of a tensor holding `data` with dtype `dtype_name` ("float32" or
    "torch.float32").

    A `grad_fn_name` adds ``grad_fn=<name>``; otherwise `requires_grad` adds
    ``requires_grad=True``; a dual tensor's `tangent` (its text) adds ``tangent=...``. A dtype
    suffix appears unless the dtype is the default float dtype, its complex counterpart, int64
    or bool (an empty tensor shows any non-default dtype).

    Example:
        >>> format_array(np.array([1.0, 2.5], np.float32), "float32", grad_fn_name="MulBackward0")
        'tensor([1.0000, 2.5000], grad_fn=<MulBackward0>)'
        >>> format_array(np.array(1024.0), "float64")
        'tensor(1024., dtype=torch.float64)'
    """
    opts = options or _options
    name = dtype_name.removeprefix("torch.")
    default = default_dtype.removeprefix("torch.")
    default_complex = "complex128" if default == "float64" else "complex64"
    suffixes = []
    if data.size == 0:
        # numpy's convention: a shape other than (0,) cannot be read off "[]", so say it
        if data.ndim != 1:
            suffixes.append(f"size={tuple(data.shape)}")
        if name != default:
            suffixes.append(f"dtype=torch.{name}")
        body = "[]"
    else:
        if not opts.edgeitems:
            suffixes.append(f"size={tuple(data.shape)}")
        if name not in (default, default_complex, "int64", "bool"):
            suffixes.append(f"dtype=torch.{name}")
        body = _body(data, len(_PREFIX), opts)
    if grad_fn_name is not None:
        suffixes.append(f"grad_fn=<{grad_fn_name}>")
    elif requires_grad:
        suffixes.append("requires_grad=True")
    if tangent is not None:
        suffixes.append(f"tangent={tangent}")
    return _add_suffixes(_PREFIX + body, suffixes, len(_PREFIX), opts.linewidth)


def sparse_repr(t) -> str:
    """PyTorch's repr of a sparse COO tensor: its indices and values, then size, nnz and
    layout, the first of these always on a line of its own."""
    opts = _options
    name = str(t.dtype).removeprefix("torch.")
    default = str(dtypes.get_default_dtype()).removeprefix("torch.")
    default_complex = "complex128" if default == "float64" else "complex64"
    suffixes = [f"size={tuple(t.shape)}", f"nnz={t._nnz()}"]
    if name not in (default, default_complex, "int64", "bool"):
        suffixes.append(f"dtype=torch.{name}")
    suffixes.append("layout=torch.sparse_coo")
    if t.grad_fn is not None:
        suffixes.append(f"grad_fn=<{type(t.grad_fn).__name__}>")
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    parts = []
    for label, data in (("indices", t._ind), ("values", t._val)):
        prefix = f"{label}=tensor("
        indent = len(_PREFIX) + len(prefix)
        body = "[]" if data.size == 0 else _body(data, indent, opts)
        if data.size == 0:
            body += f", size={tuple(data.shape)}"
        parts.append(prefix + body + ")")
    text = _PREFIX + (",\n" + " " * len(_PREFIX)).join(parts)
    # the first suffix starts a line; the others wrap as a dense tensor's do
    pad = len(_PREFIX)
    text += ",\n" + " " * pad + suffixes[0]
    last = pad + len(suffixes[0])
    for suffix in suffixes[1:]:
        if last + len(suffix) + 2 > opts.linewidth:
            text += ",\n" + " " * pad + suffix
            last = pad + len(suffix)
        else:
            text += ", " + suffix
            last += len(suffix) + 2
    return text + ")"


def _add_suffixes(text: str, suffixes: list, indent: int, linewidth: int) -> str:
    # PyTorch measures the last line as len - rfind("\n") + 1, which is two more than its
    # length when there is no newline; the wrapping point depends on that, so keep it.
    parts = [text]
    last = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if last + len(suffix) + 2 > linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


def _body(data: np.ndarray, indent: int, opts: PrintOptions) -> str:
    summarize = data.size > opts.threshold
    # the column width comes only from the elements that will be shown
    shown = _edges(data, opts.edgeitems) if summarize else data
    values = None
    if shown.dtype.kind == "c":
        fmt = _ComplexFormatter(_Formatter(shown.real, opts), _Formatter(shown.imag, opts))
    else:
        if not summarize and shown.dtype.kind == "f":
            values = data.ravel().tolist()   # read once, for the statistics and the texts
        fmt = _Formatter(shown, opts, values)
    if data.ndim == 0:
        return fmt.format(data.item())
    if values is not None:
        spec = fmt.element_spec(values)
        if spec is not None:
            return _template(data.shape, indent, fmt.width, opts.linewidth, spec) % tuple(values)
    return _nested(data, indent, summarize, fmt, opts)


def _template(shape: tuple, indent: int, width: int, linewidth: int, spec: str) -> str:
    """_laid_out's text with each element's `%` format spec in its place: one string
    operation then prints a whole tensor (the layout's brackets, separators and spaces hold
    no "%"). A trace prints the same shapes at the same widths again and again, so the
    templates of tensors of up to a thousand elements are kept."""
    key = (shape, indent, width, linewidth, spec)
    text = _TEMPLATES.get(key)
    if text is None:
        n = math.prod(shape)
        text = _laid_out([spec] * n, shape, indent, width, linewidth)
        if n <= 1000:
            if len(_TEMPLATES) >= 256:
                _TEMPLATES.clear()
            _TEMPLATES[key] = text
    return text


_TEMPLATES: dict[tuple, str] = {}


def _laid_out(texts: list, shape: tuple, indent: int, width: int, linewidth: int) -> str:
    """_nested's text for a tensor printed in full, from its elements' texts in order:
    the same brackets, separators and wrapping, built level by level without a call per
    row (a trace prints hundreds of small matrices, and the recursion was most of it)."""
    n = shape[-1]
    inner = indent + len(shape) - 1           # the innermost vectors' indent
    per_line = max(1, (linewidth - inner) // (width + 2))
    wrap = ",\n" + " " * (inner + 1)
    if n <= per_line:
        rows = ["[" + ", ".join(texts[i:i + n]) + "]" for i in range(0, len(texts), n)]
    else:
        rows = ["[" + wrap.join(", ".join(texts[j:min(j + per_line, i + n)])
                                for j in range(i, i + n, per_line)) + "]"
                for i in range(0, len(texts), n)]
    for level in range(2, len(shape) + 1):    # group rows into matrices, and so on out
        k = shape[-level]
        sep = "," + "\n" * (level - 1) + " " * (indent + len(shape) - level + 1)
        rows = ["[" + sep.join(rows[i:i + k]) + "]" for i in range(0, len(rows), k)]
    return rows[0]


def _edges(data: np.ndarray, edge: int) -> np.ndarray:
    """The elements a summarised print shows: the first and last `edge` along every axis."""
    if data.ndim == 1:
        # PyTorch keeps a whole vector when edgeitems is 0 (its slice [-0:] is everything)
        if edge and data.shape[0] > 2 * edge:
            return np.concatenate((data[:edge], data[-edge:]))
        return data
    if not edge:
        return data[:0]
    for axis, n in enumerate(data.shape):
        if n > 2 * edge:
            data = np.take(data, list(range(edge)) + list(range(n - edge, n)), axis=axis)
    return data


def _nested(data: np.ndarray, indent: int, summarize: bool, fmt: "_Formatter",
            opts: PrintOptions) -> str:
    edge = opts.edgeitems
    n = data.shape[0]
    if data.ndim == 1:
        return _vector(data, indent, summarize, fmt, opts)
    if summarize and n > 2 * edge:
        rows = ([_nested(data[i], indent + 1, summarize, fmt, opts) for i in range(edge)]
                + ["..."]
                + [_nested(data[i], indent + 1, summarize, fmt, opts) for i in range(n - edge, n)])
    else:
        rows = [_nested(data[i], indent + 1, summarize, fmt, opts) for i in range(n)]
    # one blank line between 3-d blocks, two between 4-d blocks, ...
    sep = "," + "\n" * (data.ndim - 1) + " " * (indent + 1)
    return "[" + sep.join(rows) + "]"


def _vector(data: np.ndarray, indent: int, summarize: bool, fmt: "_Formatter",
            opts: PrintOptions) -> str:
    edge = opts.edgeitems
    n = data.shape[0]
    if summarize and not edge:
        items = ["..."]
    elif summarize and n > 2 * edge:
        items = (fmt.format_all(data[:edge].tolist()) + [" ..."]
                 + fmt.format_all(data[-edge:].tolist()))
    else:
        items = fmt.format_all(data.tolist())
    # ", " after every element counts towards the line width
    per_line = max(1, (opts.linewidth - indent) // (fmt.width + 2))
    lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


class _Formatter:
    """Chooses one notation and one column width for all shown elements of a tensor.

    Floats print in fixed point with `precision` decimals, as integers with a trailing dot when
    every finite nonzero value is integral, or in scientific notation when the finite nonzero
    magnitudes span more than 1000x, exceed 1e8 or go below 1e-4 (unless `sci_mode` forces it).
    Zeros, nan and inf do not take part in that choice nor in the width.
    """

    __slots__ = ("floating", "precision", "int_mode", "sci_mode", "width")

    def __init__(self, shown: np.ndarray, opts: PrintOptions,
                 values: list | None = None) -> None:
        """`values`, if given, are shown's elements as a flat list (from tolist)."""
        self.floating = shown.dtype.kind == "f"
        self.precision = opts.precision
        self.int_mode = True
        self.sci_mode = False
        self.width = 1
        if shown.size == 0:
            return
        if not self.floating:
            # a numeral's length grows with its magnitude, so the extremes are the widest
            if shown.dtype.kind == "b":
                self.width = 4 if shown.all() else 5
            else:
                self.width = max(len(str(shown.max())), len(str(shown.min())))
            return
        extremes = None
        if shown.size <= _SMALL_PRINT:
            # the same statistics over Python floats (exact copies of float32/64 values), in
            # maps of builtins: a learner's small tensor prints in a third of the time
            # without numpy's per-call cost, which matters when a trace renders hundreds
            vals = shown.ravel().tolist() if values is None else values
            if all(map(math.isfinite, vals)):
                nonzero = list(filter(None, vals))  # (-0.0 is false too)
            else:
                nonzero = [v for v in vals if v != 0 and math.isfinite(v)]
            if not nonzero:
                return
            if type(nonzero[0]) is float:   # (tolist gives one type: numpy's for longdouble)
                self.int_mode = all(map(float.is_integer, nonzero))
            else:
                self.int_mode = all(v == math.ceil(v) for v in nonzero)
            top, bottom = max(nonzero), min(nonzero)
            lo, hi = min(map(abs, nonzero)), max(top, -bottom)
            # without an exponent a printed number is no shorter than one of the same sign
            # and a smaller magnitude: the widest is the largest or the most negative
            extremes = (top, bottom)
            candidates = nonzero
        else:
            arr = shown.astype(np.float64).ravel()
            nonzero = arr[np.isfinite(arr) & (arr != 0)]
            if nonzero.size == 0:
                return
            self.int_mode = bool(np.all(nonzero == np.ceil(nonzero)))
            magnitudes = np.abs(nonzero)
            lo, hi = float(magnitudes.min()), float(magnitudes.max())
            candidates = _widest_candidates(nonzero)
        if opts.sci_mode is None:
            self.sci_mode = hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4
        else:
            self.sci_mode = bool(opts.sci_mode)
        if extremes is not None:
            candidates = _widest_of(candidates) if self.sci_mode else extremes
        self.width = max(self._measure(v) for v in candidates)

    def _measure(self, value: float) -> int:
        if self.sci_mode:
            return len(f"{value:.{self.precision}e}")
        if self.int_mode:
            return len(f"{value:.0f}") + 1   # the trailing "." that marks a float
        return len(f"{value:.{self.precision}f}")

    def format(self, value) -> str:
        if not self.floating:
            return str(value).rjust(self.width)
        if self.sci_mode:
            text = f"{value:.{self.precision}e}"
        elif self.int_mode:
            text = f"{value:.0f}"
            if math.isfinite(value):
                text += "."
        else:
            text = f"{value:.{self.precision}f}"
        return text.rjust(self.width)

    def format_all(self, values: list) -> list:
        """format() of every value, with one format spec for all: a trace prints thousands
        of small tensors, and a call per element was most of their cost."""
        width = self.width
        if not self.floating:
            return [str(v).rjust(width) for v in values]
        if self.int_mode and not self.sci_mode:
            isfinite = math.isfinite
            return [(format(v, ".0f") + "." if isfinite(v) else format(v, ".0f")).rjust(width)
                    for v in values]
        spec = f">{width}.{self.precision}{'e' if self.sci_mode else 'f'}"
        return [format(v, spec) for v in values]


    def element_spec(self, values: list) -> str | None:
        """The `%` spec that formats each of a float tensor's elements as format() does
        (the same conversions, so the same digits), or None where there is none (an
        integral-valued tensor holding nan or inf)."""
        if self.sci_mode or not self.int_mode:
            return f"%{self.width}.{self.precision}{'e' if self.sci_mode else 'f'}"
        if all(map(math.isfinite, values)):
            return f"%{self.width - 1}.0f."   # the dot of a float after the number
        return None


class _ComplexFormatter:
    """PyTorch prints a complex element as its real part in the notation and width chosen for
    all real parts, then the imaginary part in the one chosen for all imaginary parts, without
    its padding, signed and followed by "j": ``-3.5000+0.2500j``."""

    __slots__ = ("real", "imag", "width")

    def __init__(self, real: _Formatter, imag: _Formatter) -> None:
        self.real, self.imag = real, imag
        # the line-width arithmetic counts both columns and the "j"
        self.width = real.width + imag.width + 1

    def format(self, value: complex) -> str:
        imag = self.imag.format(value.imag).lstrip() + "j"
        # a negative part, -0.0 included, brings its own sign
        return self.real.format(value.real) + (imag if imag[0] in "+-" else "+" + imag)

    def format_all(self, values: list) -> list:
        return [self.format(v) for v in values]


def _widest_candidates(nonzero: np.ndarray) -> list:
    """Values among which the longest printed one is found, whatever the notation.

    Printed length only grows with the magnitude and the sign, and in scientific notation with
    the exponent's digits, so the longest text belongs to the largest or smallest magnitude of
    either sign.
    """
    pos, neg = nonzero[nonzero > 0], nonzero[nonzero < 0]
    out = []
    if pos.size:
        out += [float(pos.min()), float(pos.max())]
    if neg.size:
        out += [float(neg.min()), float(neg.max())]
    return out


_SMALL_PRINT = 128    # elements: up to this many, the formatter's statistics use Python floats


def _widest_of(nonzero: list) -> list:
    """`_widest_candidates` for a list of Python floats."""
    pos = [v for v in nonzero if v > 0]
    neg = [v for v in nonzero if v < 0]
    return ([min(pos), max(pos)] if pos else []) + ([min(neg), max(neg)] if neg else [])


def options_with(**changes) -> PrintOptions:
    """A copy of the current options with some fields changed (for callers and tests that
    want one formatting without touching the global state)."""
    return replace(_options, **changes)


def structseq_repr(name: str, fields: dict) -> str:
    """How PyTorch prints the named tuples some ops return (`torch.return_types.max` …).

    Each field goes on its own line, with no indentation.

    Example:
        >>> print(structseq_repr("max", {"values": 1, "indices": 0}))
        torch.return_types.max(
        values=1,
        indices=0)
    """
    body = ",\n".join(f"{key}={value!r}" for key, value in fields.items())
    return f"torch.return_types.{name}(\n{body})"
