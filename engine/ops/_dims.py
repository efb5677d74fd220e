"""Dim arguments: checked and normalised for the ops, remembered as given for `_saved_dim`.

PyTorch wraps a negative dim only inside its kernels; the grad_fn keeps the argument as the
user wrote it (`sum(dim=(-1, 0))` saves `(-1, 0)`, read back unsigned). The engine's ops want
dims normalised, so the helpers here return normalised values that also carry the given form.

# NOTE [dims as given]
# `dim_of(-1, 3)` returns `GivenDim(2)` with `.given == -1`: an int (a tuple for `dims_of`)
# that every forward and backward uses as the plain normalised value, while the grad_fn's
# public `_saved_dim` accessor shows `.given` (graph.py, `_int_saved_property`). A dim that
# is already normalised comes back as a plain int or tuple, so the common call pays nothing.
# A backward that hands its saved dim on to another op (cumsum's flip and cumsum) passes the
# given form on with it, as PyTorch's formulas do; where PyTorch's formula wraps the dim first
# (cat, split, prod, cumprod) the backward passes int(ctx.dim).
"""
from __future__ import annotations

import numpy as np


class GivenDim(int):
    """A normalised dim that remembers the dim as the caller gave it (`.given`)."""

    # (int and tuple subclasses cannot declare slots: `given` lives in the instance dict)

    def __new__(cls, value: int, given: int) -> GivenDim:
        self = int.__new__(cls, value)
        self.given = given
        return self

    __repr__ = int.__repr__


class GivenDims(tuple):
    """Normalised dims (a tuple) that remember the dims as the caller gave them (`.given`)."""

    # (int and tuple subclasses cannot declare slots: `given` lives in the instance dict)

    def __new__(cls, value: tuple, given: tuple) -> GivenDims:
        self = tuple.__new__(cls, value)
        self.given = given
        return self

    __repr__ = tuple.__repr__


def _wrap(d, ndim: int) -> int:
    """`d` in [0, ndim), with PyTorch's IndexError (a 0-d tensor takes -1 and 0 as dim 0)."""
    lo, hi = (-ndim, ndim - 1) if ndim else (-1, 0)
    if not lo <= d <= hi:
        raise IndexError(f"Dimension out of range (expected to be in range of [{lo}, {hi}]"
                         f", but got {d})")
    return d % ndim if ndim else 0


def _names(given, ndim: int, d: int) -> bool:
    """Whether the integer `given` names dim `d` of an `ndim`-dim tensor."""
    n = max(ndim, 1)
    return -n <= given < n and (given % ndim if ndim else 0) == d


def _given_form(values, ndim: int, out: tuple) -> tuple:
    """The dims as given: a backward passing a saved `GivenDim(s)` on (cumsum's flip) hands on
    its given form, as PyTorch's formulas pass the saved dim, when it names the same dims
    (`out`, the dims wrapped in the order of `values`)."""
    given = getattr(values, "given", None)
    if given is None:
        given = tuple([getattr(v, "given", v) for v in values])
    given = tuple([int(g) for g in given])
    if len(given) != len(out):
        return out
    if isinstance(values, GivenDims):      # dims_of's are sorted, their given form is not
        return given if sorted(_wrapped(given, ndim)) == sorted(out) else out
    return given if list(_wrapped(given, ndim)) == list(out) else out


def _wrapped(given: tuple, ndim: int) -> list:
    """Each of `given` wrapped to [0, ndim), or -1 where it is out of range."""
    n = max(ndim, 1)
    return [(g % ndim if ndim else 0) if -n <= g < n else -1 for g in given]


def dim_of(dim, ndim: int) -> int:
    """One dim normalised to [0, ndim); a negative one comes back as a `GivenDim`.

    Example:
        >>> d = dim_of(-1, 3)
        >>> d, d.given
        (2, -1)
    """
    d = _wrap(dim, ndim)
    given = getattr(dim, "given", dim)
    if given == d or not _names(given, ndim, d):
        return d
    return GivenDim(d, int(given))


def dims_of(dim, ndim: int) -> tuple:
    """Normalise `dim` (int or sequence, negatives allowed) to a sorted tuple, PyTorch's
    errors; `.given` keeps the dims as given when they differ (a `GivenDims`).

    Example:
        >>> d = dims_of((-1, 0), 3)
        >>> d, d.given
        ((0, 2), (-1, 0))
    """
    dims = (dim,) if isinstance(dim, (int, np.integer)) else dim
    wrapped = [_wrap(d, ndim) for d in dims]
    out = tuple(sorted(wrapped))
    if len(set(wrapped)) != len(wrapped):
        seen = set()
        for d in wrapped:          # PyTorch names the first repeat, in the order given
            if d in seen:
                raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
            seen.add(d)
    given = _given_form(dims, ndim, tuple(wrapped))
    return out if given == out else GivenDims(out, given)


def dims_in_order(dims, ndim: int) -> tuple:
    """Each of `dims` normalised, in the order given (flip, roll, permute), `.given` kept."""
    dims = (dims,) if isinstance(dims, (int, np.integer)) else dims
    out = tuple([_wrap(d, ndim) for d in dims])
    given = _given_form(dims, ndim, out)
    return out if given == out else GivenDims(out, given)


def distinct_dims(dims: tuple) -> tuple:
    """`dims` (normalised and sorted, as `dims_of` gives them), refusing a repeated dim with
    PyTorch's reduction error.

    Example:
        >>> distinct_dims((0, 0))
        Traceback (most recent call last):
        RuntimeError: dim 0 appears multiple times in the list of dims
    """
    for a, b in zip(dims, dims[1:]):
        if a == b:
            raise RuntimeError(f"dim {a} appears multiple times in the list of dims")
    return dims
