"""The standard modules a program may import besides math, random, collections and copy.

Each is a ModuleProxy of listed names, chosen module by module (docs/sandbox.md says why for
each): what tutorials and exercises use, never what reaches attributes by a name given as
data (operator.attrgetter, methodcaller), builds code from text (typing.NamedTuple,
collections.namedtuple, string.Formatter) or touches the process (time.sleep is kept: it
spends the run's own wall clock). Objects these names return are guarded as any other
(runner.guards): a `re.Match` exposes its listed methods only.

A callable that takes attribute names, class bodies or dunder names as data is a getattr or
setattr in disguise, so the few that tutorials need are guarded here, by what they do:
`functools.wraps`/`update_wrapper` copy only the standard names onto the program's own
functions and classes, `total_ordering`, `abc.abstractmethod` and `dataclasses.dataclass`/
`replace` work on the program's own classes and objects only, the enum functional API takes
public member names only (`guard_enum_functional_api`), `warnings.catch_warnings` never
takes another module.

Example:
    >>> sorted(stdlib_proxies()["itertools"]._sbx_names)[:3]
    ['accumulate', 'chain', 'combinations']
"""
from __future__ import annotations

import abc
import dataclasses
import enum
import functools
import itertools
import operator
import re
import statistics
import string
import sys
import time
import types
import typing
import warnings

from gradstep.engine._names import is_engine_module
from gradstep.runner.errors import SecurityError
from gradstep.runner.proxies import ModuleProxy

_USER_MODULE = "__main__"       # the program's own functions and classes (runner.guards)

_NAMES = {
    itertools: """accumulate chain combinations combinations_with_replacement compress count
        cycle dropwhile filterfalse groupby islice pairwise permutations product repeat
        starmap takewhile tee zip_longest""",
    functools: "reduce partial lru_cache cache cmp_to_key",
    # every function of an operator, never attrgetter/methodcaller (a name as data)
    operator: """add sub mul truediv floordiv mod pow neg pos abs matmul lt le eq ne ge gt
        not_ truth and_ or_ xor invert lshift rshift index concat contains countOf indexOf
        getitem itemgetter""",
    string: """ascii_letters ascii_lowercase ascii_uppercase digits hexdigits octdigits
        punctuation printable whitespace capwords""",
    statistics: """mean fmean geometric_mean harmonic_mean median median_low median_high
        median_grouped mode multimode pstdev pvariance stdev variance quantiles
        StatisticsError""",
    time: "time perf_counter monotonic process_time time_ns perf_counter_ns sleep",
    typing: """Any Callable Dict List Optional Sequence Set Tuple Union Iterable Iterator
        Mapping Type TypeVar Generic cast overload Final Literal ClassVar""",
    # never asdict/astuple: they deepcopy field values with copy.deepcopy itself, which
    # would rebuild the sandbox's own objects that copy.deepcopy here shares (proxies.py)
    dataclasses: "field fields is_dataclass",
    enum: "Enum IntEnum Flag IntFlag auto unique",
    abc: "ABC",
    re: """compile search match fullmatch findall finditer sub subn split escape
        IGNORECASE MULTILINE DOTALL VERBOSE ASCII I M S X A error""",
}


# ---- guarded: callables that take names or classes as data ---------------------------------

def _own(obj) -> bool:
    """A function or class the program itself defined."""
    return (isinstance(obj, (types.FunctionType, type))
            and getattr(obj, "__module__", None) == _USER_MODULE)


def _refuse_unless_own(what: str, obj) -> None:
    if not _own(obj):
        name = getattr(obj, "__name__", type(obj).__name__)
        raise SecurityError(f"{what} works on your own functions and classes only, not "
                            f"{str(name)!r}")


def _names(keyword: str, given, allowed: tuple) -> tuple:
    names = tuple(given)
    for name in names:
        if type(name) is not str or name not in allowed:
            raise SecurityError(f"functools.wraps: {keyword}= may name only "
                                f"{', '.join(allowed)}, not {name!r}")
    return names


def update_wrapper(wrapper, wrapped, assigned=functools.WRAPPER_ASSIGNMENTS,
                   updated=functools.WRAPPER_UPDATES):
    """functools.update_wrapper onto the program's own function or class, with the standard
    names only (`assigned=`/`updated=` name attributes: a getattr and setattr in disguise).
    What the wrapped object does not show a program (its module, its `__dict__`) is copied
    only from the program's own functions and classes."""
    assigned = _names("assigned", assigned, functools.WRAPPER_ASSIGNMENTS)
    updated = _names("updated", updated, functools.WRAPPER_UPDATES)
    _refuse_unless_own("functools.wraps", wrapper)
    own = _own(wrapped)
    if not own:     # a library's: its words only, as plain strings
        assigned = tuple(n for n in assigned if n in ("__name__", "__qualname__", "__doc__"))
        updated = ()
    for name in assigned:
        try:
            value = getattr(wrapped, name)
        except AttributeError:
            continue
        setattr(wrapper, name, value if own or value is None else str(value))
    for name in updated:
        getattr(wrapper, name).update(getattr(wrapped, name, {}))
    wrapper.__wrapped__ = wrapped
    return wrapper


def wraps(wrapped, assigned=functools.WRAPPER_ASSIGNMENTS, updated=functools.WRAPPER_UPDATES):
    """functools.wraps with the guarded update_wrapper above."""
    assigned = _names("assigned", assigned, functools.WRAPPER_ASSIGNMENTS)
    updated = _names("updated", updated, functools.WRAPPER_UPDATES)
    return functools.partial(update_wrapper, wrapped=wrapped, assigned=assigned,
                             updated=updated)


def total_ordering(cls):
    """functools.total_ordering on the program's own class (it writes methods onto it)."""
    _refuse_unless_own("functools.total_ordering", cls)
    return functools.total_ordering(cls)


def abstractmethod(funcobj):
    """abc.abstractmethod on the program's own function (it writes a flag onto it)."""
    if not isinstance(funcobj, (staticmethod, property)):
        _refuse_unless_own("abc.abstractmethod", funcobj)
    return abc.abstractmethod(funcobj)


def dataclass(cls=None, /, **options):
    """dataclasses.dataclass on the program's own class (it writes __init__, __repr__, ...
    onto the class it is given)."""
    def wrap(cls):
        _refuse_unless_own("dataclasses.dataclass", cls)
        return dataclasses.dataclass(**options)(cls)
    return wrap if cls is None else wrap(cls)


def replace(obj, /, **changes):
    """dataclasses.replace of the program's own dataclass objects (field names are data)."""
    _refuse_unless_own("dataclasses.replace", type(obj))
    return dataclasses.replace(obj, **changes)


def catch_warnings(*, record=False, action=None, category=Warning, lineno=0, append=False):
    """warnings.catch_warnings of the run's own warnings module (never `module=`, which
    would swap the filters and hooks of another object)."""
    return warnings.catch_warnings(record=record, action=action, category=category,
                                   lineno=lineno, append=append)


for _f, _name in ((update_wrapper, "update_wrapper"), (wraps, "wraps"),
                  (total_ordering, "total_ordering"), (abstractmethod, "abstractmethod"),
                  (dataclass, "dataclass"), (replace, "replace"),
                  (catch_warnings, "catch_warnings")):
    _f.__qualname__ = _name
GUARDED: dict[str, dict[str, object]] = {
    "functools": {"wraps": wraps, "update_wrapper": update_wrapper,
                  "total_ordering": total_ordering},
    "abc": {"abstractmethod": abstractmethod},
    "dataclasses": {"dataclass": dataclass, "replace": replace},
}

_ENUM_CALL = enum.EnumType.__call__
_ENUM_MIXINS = (int, float, complex, str, bytes)


def _enum_call(cls, *args, **kwargs):
    """EnumType.__call__ whose functional API takes public member names only, no module=
    that would make the class pass for an engine one, and no mixin type but the plain values
    and the program's own classes: `Enum("E", {"__exit__": f})` would write a class body from
    data, `type=np.float64` expose numpy's scalar internals."""
    if len(args) < 2 and "names" not in kwargs and not kwargs:
        return _ENUM_CALL(cls, *args)           # `Color(1)`: a member look-up
    names = args[1] if len(args) > 1 else kwargs.get("names")
    # module= decides how the guard treats the class: the caller may name its own module
    # (plistlib does), never another one, and never the engine's
    module = kwargs.get("module")
    if module is not None and (
            not isinstance(module, str) or is_engine_module(module)
            or module not in (_USER_MODULE, sys._getframe(1).f_globals.get("__name__"))):
        raise SecurityError(f"Enum(): module= may name only the calling module, not "
                            f"{module!r}")
    mixin = kwargs.get("type")
    if mixin is not None and mixin not in _ENUM_MIXINS and not _own(mixin):
        raise SecurityError(f"Enum(): type= may be int, float, complex, str, bytes or your "
                            f"own class, not {str(getattr(mixin, '__name__', mixin))!r}")
    if isinstance(names, str):
        listed = names.replace(",", " ").split()
    elif isinstance(names, dict):
        names = dict(names)
        listed = list(names)
    elif names is not None:     # fixed once: an item that iterates differently twice
        names = [n if isinstance(n, str) else tuple(n) for n in names]
        listed = [n if isinstance(n, str) else n[0] for n in names]
    else:
        listed = []
    for name in listed:
        if not isinstance(name, str) or name.startswith("_"):
            raise SecurityError(f"Enum(): member names starting with '_' are not allowed: "
                                f"{name!r}")
    value = args[0] if args else kwargs.pop("value")
    if names is None:       # `Color(value=1)`: a look-up after all
        return _ENUM_CALL(cls, value)
    # without module=, the program's (enum would look two frames up, into this function)
    kwargs.update(names=names, module=module if module is not None else _USER_MODULE)
    return _ENUM_CALL(cls, value, **kwargs)


def guard_enum_functional_api() -> None:
    """Install _enum_call (once per worker; enum classes the runner and engine make from
    names are plain, so they pass unchanged)."""
    if enum.EnumType.__call__ is not _enum_call:
        enum.EnumType.__call__ = _enum_call     # type: ignore[method-assign]


def _warn(message, category=None, stacklevel=1):
    """warnings.warn as the run installed it (runner.child wraps it per run)."""
    return warnings.warn(message, category, stacklevel + 1)


_warn.__name__ = _warn.__qualname__ = "warn"


def _exposed(module, names: str) -> dict:
    exposed: dict = {n: getattr(module, n) for n in names.split()}
    exposed.update(GUARDED.get(module.__name__, {}))
    return exposed


def stdlib_proxies() -> dict:
    """{module name: ModuleProxy} for the modules above and `warnings`."""
    guard_enum_functional_api()
    proxies = {module.__name__: ModuleProxy(module.__name__,
                                            _exposed(module, names),
                                            dir(module))
               for module, names in _NAMES.items()}
    proxies["warnings"] = ModuleProxy("warnings", {
        "warn": _warn, "simplefilter": warnings.simplefilter,
        "filterwarnings": warnings.filterwarnings, "catch_warnings": catch_warnings,
        "resetwarnings": warnings.resetwarnings}, dir(warnings))
    return proxies


# Base classes these modules add to what a class statement may subclass (Sandbox.base).
BASE_CLASSES = (enum.Enum, abc.ABC, typing.Generic)

# Attributes of these modules' classes a program may read: `itertools.chain.from_iterable`.
CLASS_ATTRS = {itertools.chain: frozenset(("from_iterable",))}

# Attributes of the objects these modules return, by type: everything else is refused.
RETURNED_ATTRS = {
    re.Pattern: frozenset("""search match fullmatch findall finditer sub subn split pattern
        flags groups groupindex""".split()),
    re.Match: frozenset("""group groups groupdict start end span expand string re pos endpos
        lastindex lastgroup""".split()),
    functools.partial: frozenset(),
    # `with warnings.catch_warnings(record=True) as caught:` then `caught[0].category`
    warnings.WarningMessage: frozenset("message category filename lineno line".split()),
    dataclasses.Field: frozenset(("name", "default")),
    type(functools.lru_cache(None)(abs)): frozenset(("cache_info", "cache_clear")),
}
