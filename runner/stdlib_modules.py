"""The standard modules a program may import besides math, random, collections and copy.

Each is a ModuleProxy of listed names, chosen module by module (docs/sandbox.md says why for
each): what tutorials and exercises use, never what reaches attributes by a name given as
data (operator.attrgetter, methodcaller), builds code from text (typing.NamedTuple,
collections.namedtuple, string.Formatter) or touches the process (time.sleep is kept: it
spends the run's own wall clock). Objects these names return are guarded as any other
(runner.guards): a `re.Match` exposes its listed methods only.

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
import time
import typing
import warnings

from gradstep.runner.proxies import ModuleProxy

_NAMES = {
    itertools: """accumulate chain combinations combinations_with_replacement compress count
        cycle dropwhile filterfalse groupby islice pairwise permutations product repeat
        starmap takewhile tee zip_longest""",
    functools: "reduce partial lru_cache cache wraps cmp_to_key total_ordering",
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
    dataclasses: "dataclass field fields replace is_dataclass",
    enum: "Enum IntEnum Flag IntFlag auto unique",
    abc: "ABC abstractmethod",
    re: """compile search match fullmatch findall finditer sub subn split escape
        IGNORECASE MULTILINE DOTALL VERBOSE ASCII I M S X A error""",
}


def _warn(message, category=None, stacklevel=1):
    """warnings.warn as the run installed it (runner.child wraps it per run)."""
    return warnings.warn(message, category, stacklevel + 1)


_warn.__name__ = _warn.__qualname__ = "warn"


def stdlib_proxies() -> dict:
    """{module name: ModuleProxy} for the modules above and `warnings`."""
    proxies = {module.__name__: ModuleProxy(module.__name__,
                                            {n: getattr(module, n) for n in names.split()},
                                            dir(module))
               for module, names in _NAMES.items()}
    proxies["warnings"] = ModuleProxy("warnings", {
        "warn": _warn, "simplefilter": warnings.simplefilter,
        "filterwarnings": warnings.filterwarnings, "catch_warnings": warnings.catch_warnings,
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
    type(functools.lru_cache(None)(abs)): frozenset(("cache_info", "cache_clear")),
}
