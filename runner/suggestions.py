"""The "Did you mean: 'backward'?" that ends Python 3.11's report of a misspelt name.

`python FILE` prints an uncaught NameError or AttributeError through the interpreter's own
display, which (in 3.11) appends a suggestion that `traceback.format_exception` (how the runner
formats) does not: `x.backwards()` ends "... has no attribute 'backwards'. Did you mean:
'backward'?", `print(los)` ends "... is not defined. Did you mean: 'loss'?". This module picks
the same name by the same rule, written from the behaviour CPython 3.11 documents and shows:

- candidates: for an AttributeError, `dir(obj)`; for a NameError, the failing frame's local
  variable names, then its globals, then the builtins (the first group with a match wins);
- no suggestion at all from a group of 750 names or more;
- a Levenshtein distance over the UTF-8 bytes, after dropping a common prefix and suffix, where
  an insertion, deletion or substitution costs 2 and a change of ASCII case alone costs 1;
- a candidate counts only within (len(name) + len(candidate) + 3) * 2 // 6, and only if it
  beats the best so far, so among equals the first in the group's order wins.

What stands in for what PyTorch's objects would list: a tensor and the `torch.*` modules use
PyTorch's own `dir()` lists (engine/upstream_names.py DIRS), since gradstep's classes have other
private names; a program's NameError uses the globals `python FILE` would have (the sandbox's
own entries left out) and Python's builtins, not the sandbox's reduced set.
"""
from __future__ import annotations

import builtins

_MOVE = 2           # an insertion, deletion or substitution
_CASE = 1           # a substitution that only changes ASCII case
_MAX_ITEMS = 750    # a group this large gives no suggestion
_MAX_LENGTH = 40    # bytes, after the common prefix and suffix are dropped

# what `python FILE` has in its module globals before the program's first line
_SCRIPT_GLOBALS = ("__name__", "__doc__", "__package__", "__loader__", "__spec__",
                   "__annotations__", "__builtins__", "__file__", "__cached__")


def _lower(byte: int) -> int:
    return byte + 32 if 65 <= byte <= 90 else byte


def distance(a: bytes, b: bytes, max_cost: int) -> int:
    """The weighted edit distance, or max_cost + 1 once it must exceed max_cost.

    Example:
        >>> distance(b"backwards", b"backward", 10), distance(b"Relu", b"relu", 10)
        (2, 1)
    """
    if a == b:
        return 0
    start = 0
    while start < len(a) and start < len(b) and a[start] == b[start]:
        start += 1
    a, b = a[start:], b[start:]
    end = 0
    while end < len(a) and end < len(b) and a[-1 - end] == b[-1 - end]:
        end += 1
    if end:
        a, b = a[:-end], b[:-end]
    if not a or not b:
        return (len(a) + len(b)) * _MOVE
    if len(a) > _MAX_LENGTH or len(b) > _MAX_LENGTH:
        return max_cost + 1
    if len(b) < len(a):
        a, b = b, a
    if (len(b) - len(a)) * _MOVE > max_cost:
        return max_cost + 1
    row = [(i + 1) * _MOVE for i in range(len(a))]     # cost of a[:i+1] from nothing
    result = 0
    for j, code in enumerate(b):
        diagonal = result = j * _MOVE
        smallest = None
        for i, other in enumerate(a):
            step = 0 if code == other else _CASE if _lower(code) == _lower(other) else _MOVE
            substitute = diagonal + step
            diagonal = row[i]
            result = min(min(result, diagonal) + _MOVE, substitute)
            row[i] = result
            smallest = result if smallest is None or result < smallest else smallest
        if smallest > max_cost:
            return max_cost + 1
    return result


def best_match(candidates, name: str) -> str | None:
    """The candidate Python 3.11 would suggest for `name`, or None."""
    candidates = list(candidates)
    if len(candidates) >= _MAX_ITEMS:
        return None
    wanted = name.encode("utf-8", "surrogatepass")
    best, best_cost = None, None
    for item in candidates:
        if not isinstance(item, str) or item == name:
            continue
        encoded = item.encode("utf-8", "surrogatepass")
        limit = (len(wanted) + len(encoded) + 3) * _MOVE // 6
        if best_cost is not None:
            limit = min(limit, best_cost - 1)
        cost = distance(wanted, encoded, limit)
        if cost <= limit and (best is None or cost < best_cost):
            best, best_cost = item, cost
    return best


def _attribute_candidates(obj):
    from gradstep.engine.tensor import Tensor
    from gradstep.engine.upstream_names import DIRS
    from gradstep.runner.proxies import ModuleProxy
    if isinstance(obj, Tensor):
        return DIRS["Tensor"]
    if isinstance(obj, type) and issubclass(obj, Tensor):
        # the class lists two names more than a tensor does: 751, too many to suggest from
        return DIRS["Tensor"] + ("__cuda_array_interface__", "volatile")
    if isinstance(obj, ModuleProxy):
        name = obj._sbx_name
        if name in DIRS:
            return DIRS[name]
        return sorted(set(obj._sbx_names) | set(obj._sbx_hidden))
    return dir(obj)


def _name_candidates(exc: NameError):
    tb = exc.__traceback__
    if tb is None:
        return
    while tb.tb_next is not None:
        tb = tb.tb_next
    frame = tb.tb_frame
    yield frame.f_code.co_varnames
    user = [n for n in frame.f_globals if not (isinstance(n, str) and n.startswith("_sbx_"))]
    yield list(_SCRIPT_GLOBALS) + [n for n in user if n not in _SCRIPT_GLOBALS]
    yield list(vars(builtins))


def suggestion(exc: BaseException) -> str | None:
    """The name `python FILE` would suggest for an uncaught NameError or AttributeError."""
    name = getattr(exc, "name", None)
    if type(name) is not str:
        return None
    try:
        if isinstance(exc, AttributeError):
            return best_match(_attribute_candidates(exc.obj), name)
        if isinstance(exc, NameError):
            for group in _name_candidates(exc):
                found = best_match(group, name)
                if found is not None:
                    return found
    except Exception:  # a hostile __dir__ must not stop the report
        return None
    return None
