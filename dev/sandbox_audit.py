"""Audit every callable a sandboxed program can reach: pure, guarded or refused, and why.

usage: python dev/sandbox_audit.py [--write]

Walks what a program reaches by name: the sandbox's builtins, every module proxy (torch and
its submodules, numpy, the standard modules), the methods of every engine class (what an
engine object hands out), of the plain types and of the objects the guard lets a program
read (an ndarray's listed methods, a `re.Match` ...). Each callable gets a class:

- pure: takes values and gives values; what it returns is guarded as any value;
- guarded: it takes attribute names, class bodies or dunders as data, or yields something
  the rule "close the class, not the instance" keeps closed, and a guard makes it safe;
- refused: the real module has it and a program gets a clear error instead.

Standard modules and builtins need a verdict for each name (a new one stops this script);
engine, numpy, math, random and pyplot names fall under their module's rule unless listed;
a module proxy no rule covers stops the script. Without --write it prints the table; with it,
the table replaces the one between the markers in docs/sandbox.md.
tests/security/test_sandbox_audit.py fails when the doc's table differs from the walk.
"""
from __future__ import annotations

import argparse
import builtins
import collections
import importlib
import inspect
import sys
from pathlib import Path

DOC = Path(__file__).resolve().parents[1] / "docs" / "sandbox.md"
BEGIN, END = "<!-- sandbox-audit:begin -->", "<!-- sandbox-audit:end -->"

PURE, GUARDED, REFUSED = "pure", "guarded", "refused"

ENGINE_PURE = ("engine op or helper: tensors, numbers and containers in, the same out; "
               "callbacks it takes are the program's own code")
NUMPY_PURE = ("numpy function of arrays and values (the ndarray constructor, raw buffers, "
              "file I/O and stride tricks are withheld)")

# Families: module proxies whose names share one rule unless listed below.
FAMILIES = {
    "torch": ENGINE_PURE, "numpy": NUMPY_PURE, "math": "math function of numbers",
    "random": "random numbers from the run's seeded generator",
    "matplotlib": "data-only stand-in: records numbers and words for the page's plot",
}

NAMES_AS_DATA = ("names as data go into and out of the module's own registries "
                 "(parameters, buffers, submodules), never getattr/setattr on the object")
# Explicit verdicts: "where.name" -> (class, why). Standard modules and builtins must list
# every name they expose.
VERDICTS: dict[str, tuple[str, str]] = {}


def _add(verdict: str, why: str, names: str) -> None:
    for name in names.split():
        VERDICTS[name] = (verdict, why)


_add(GUARDED, "counted output; file= refused", "builtins.print")
_add(GUARDED, "the class only for plain values, exceptions, engine and program classes; "
              "any other as a ClassView that cannot be called", "builtins.type")
_add(GUARDED, "the name is checked by policy.attribute_refusal, then the object's guard "
              "decides", "builtins.getattr builtins.hasattr builtins.setattr builtins.delattr")
_add(GUARDED, "per-run numbers, never addresses (RunIds)", "builtins.id builtins.hash")
_add(GUARDED, "attributes read only when the class is the program's own", "builtins.super")
_add(GUARDED, "class bodies are checked by the policy, bases by the run-time base check",
     "builtins.__build_class__")
_add(GUARDED, "internal: numpy's C methods import already loaded numpy modules only; a "
              "program cannot name it", "builtins.__import__")
_add(PURE, "calls the value's own __format__; programs cannot define one",
     "builtins.format")
_add(PURE, "builtin of values", """builtins.abs builtins.all builtins.any builtins.ascii
    builtins.bin builtins.callable builtins.chr builtins.divmod builtins.hex builtins.isinstance
    builtins.issubclass builtins.iter builtins.len builtins.max builtins.min builtins.next
    builtins.oct builtins.ord builtins.pow builtins.repr builtins.round builtins.sorted
    builtins.sum""")
_add(PURE, "value class: its constructor takes values", """builtins.bool builtins.bytes
    builtins.complex builtins.dict builtins.enumerate builtins.filter builtins.float
    builtins.frozenset builtins.int builtins.list builtins.map builtins.range
    builtins.reversed builtins.set builtins.slice builtins.str builtins.tuple builtins.zip
    builtins.property builtins.staticmethod""")
_add(GUARDED, "fields read attributes through the guard and index as a[key] does",
     "builtins.str.format")

_add(GUARDED, "copies only the standard names onto the program's own functions and classes; "
              "assigned=/updated= may name nothing else; module and __dict__ come only from "
              "the program's own", "functools.wraps functools.update_wrapper")
_add(GUARDED, "writes methods onto the program's own classes only", "functools.total_ordering")
_add(PURE, "combines callables and values; a partial or cache exposes no attributes",
     "functools.reduce functools.partial functools.lru_cache functools.cache "
     "functools.cmp_to_key")
_add(GUARDED, "writes a flag onto the program's own functions only", "abc.abstractmethod")
_add(PURE, "base class for the program's own abstract classes", "abc.ABC")
_add(GUARDED, "rewrites the program's own classes only", "dataclasses.dataclass")
_add(GUARDED, "field names are data: the program's own dataclass objects only",
     "dataclasses.replace")
_add(PURE, "describes fields; Field objects expose name and default only",
     "dataclasses.field dataclasses.fields dataclasses.is_dataclass")
_add(GUARDED, "the functional API (Enum('E', names)) takes public member names only, no "
              "module= but the caller's own (never the engine's) and no type= but plain values and "
              "the program's own classes; a member look-up is unchanged",
     "enum.Enum enum.IntEnum enum.Flag enum.IntFlag")
_add(PURE, "member values and checks", "enum.auto enum.unique")
_add(PURE, "iterator of values; the iterators' attributes stay closed", " ".join(
    f"itertools.{n}" for n in """accumulate chain combinations combinations_with_replacement
    compress count cycle dropwhile filterfalse groupby islice pairwise permutations product
    repeat starmap takewhile tee zip_longest""".split()))
_add(PURE, "operator on values (itemgetter indexes as a[key] does)", " ".join(
    f"operator.{n}" for n in """add sub mul truediv floordiv mod pow neg pos abs matmul lt le
    eq ne ge gt not_ truth and_ or_ xor invert lshift rshift index concat contains countOf
    indexOf getitem itemgetter""".split()))
_add(PURE, "string helper", "string.capwords")
_add(PURE, "statistics of numbers", " ".join(f"statistics.{n}" for n in """mean fmean
    geometric_mean harmonic_mean median median_low median_high median_grouped mode multimode
    pstdev pvariance stdev variance quantiles StatisticsError""".split()))
_add(PURE, "clock reading; sleep spends the run's own wall clock", " ".join(
    f"time.{n}" for n in "time perf_counter monotonic process_time time_ns perf_counter_ns "
                         "sleep".split()))
_add(PURE, "type hints: markers and aliases, never evaluated from text", " ".join(
    f"typing.{n}" for n in """Any Callable Dict List Optional Sequence Set Tuple Union Iterable
    Iterator Mapping Type TypeVar Generic cast overload Final Literal ClassVar""".split()))
_add(PURE, "regular expressions; a Match or Pattern exposes its listed methods", " ".join(
    f"re.{n}" for n in "compile search match fullmatch findall finditer sub subn split escape "
                       "error".split()))
_add(PURE, "the run's own warn, placed on the program's line", "warnings.warn")
_add(PURE, "warning filters of the run", "warnings.simplefilter warnings.filterwarnings "
                                         "warnings.resetwarnings")
_add(GUARDED, "never module= (it would swap another object's filters and hooks)",
     "warnings.catch_warnings")
_add(PURE, "the plain containers", "collections.OrderedDict collections.defaultdict "
                                   "collections.Counter collections.deque")
_add(GUARDED, "the sandbox's own objects are shared, never rebuilt; frames and generators "
              "are refused; no memo argument", "copy.copy copy.deepcopy")
_add(GUARDED, "defaults and annotations it hands out are checked as attribute values",
     "inspect.signature")

_add(GUARDED, "a per-storage number and byte offset, never a memory address",
     "torch.Tensor.data_ptr")
_add(GUARDED, NAMES_AS_DATA, " ".join(f"torch.nn.Module.{n}" for n in """register_buffer
    register_parameter add_module register_module get_submodule get_parameter
    load_state_dict""".split()))
_add(GUARDED, "keys are the dict's own entries: a key that is not one is an AttributeError, "
              "never another attribute", " ".join(f"torch.nn.ParameterDict.{n}" for n in
                                                  "get pop update setdefault".split()))
_add(GUARDED, "walks the submodule registries by name; a part starting with '_' is never read",
     "torch.func.functional_call")
_add(GUARDED, "an in-memory copy; an object that cannot be pickled (a module) fails as in "
              "PyTorch", "torch.save torch.load")
_add(GUARDED, "zero-filled, never freed memory of other runs", "numpy.empty numpy.empty_like")
_add(GUARDED, "reads its argument's numpy protocols: no program class can define one "
              "(dunder methods policy, the enum guard)", "numpy.array numpy.asarray")

# Withheld names with the reason that matters (the rest: WITHHELD).
REFUSED_WHY = {
    "operator.attrgetter": "takes attribute names as data and reads them outside the guard",
    "operator.methodcaller": "takes a method name as data and calls it outside the guard",
    "operator.setitem": "not needed", "string.Formatter": "resolves {0.__class__} chains "
                                                          "outside the guard",
    "string.Template": "not needed", "typing.NamedTuple": "builds a class from names as data",
    "typing.TypedDict": "builds a class from names as data",
    "typing.get_type_hints": "evaluates annotation text",
    "collections.namedtuple": "builds a class (and code) from names as data",
    "dataclasses.make_dataclass": "builds a class from names as data",
    "dataclasses.asdict": "deep-copies with copy.deepcopy itself, which would rebuild the "
                          "sandbox's own objects",
    "dataclasses.astuple": "as asdict",
    "functools.singledispatch": "registers on classes by annotation",
    "enum.EnumType": "the metaclass: class machinery on other classes",
    "abc.ABCMeta": "the metaclass: class machinery on other classes",
    "warnings.showwarning": "would replace the runner's own hook",
    "warnings.formatwarning": "would replace the runner's own hook",
    "copy.replace": "calls __replace__ hooks", "inspect.currentframe": "hands out frames",
    "inspect.getmodule": "hands out real modules", "inspect.stack": "hands out frames",
    "numpy.ndarray": "constructor takes a raw buffer and an offset",
    "numpy.frombuffer": "reads raw memory", "numpy.lib": "stride tricks, file formats",
    "numpy.ctypeslib": "pointers", "numpy.load": "file I/O", "numpy.save": "file I/O",
    "numpy.fromfile": "file I/O", "numpy.memmap": "file I/O",
}
REFUSED_IMPORTS = ("types pickle copyreg ctypes gc sys os builtins importlib io marshal "
                   "subprocess socket threading")

_STDLIB = ("functools", "abc", "dataclasses", "enum", "itertools", "operator", "string",
           "statistics", "time", "typing", "re", "warnings", "collections", "copy", "inspect")


class Unaudited(Exception):
    """A reachable callable or module proxy that no verdict or rule covers."""


def _family(where: str) -> str | None:
    root = where.split(".")[0]
    return FAMILIES.get(root)


USED: set[str] = set()


def classify(where: str, name: str) -> tuple[str, str]:
    key = f"{where}.{name}"
    if key in VERDICTS:
        USED.add(key)
        return VERDICTS[key]
    if where.split(".")[0] in _STDLIB or where == "builtins":
        if where == "builtins" and isinstance(getattr(builtins, name, None), type) and \
                issubclass(getattr(builtins, name), BaseException):
            return PURE, "exception class: its constructor takes values; instances show .args"
        raise Unaudited(f"{key} has no verdict in dev/sandbox_audit.py")
    family = _family(where)
    if family is None:
        raise Unaudited(f"{key}: no rule covers the module {where!r} in dev/sandbox_audit.py")
    return PURE, family


def _engine_classes() -> list[type]:
    """Every class defined by the engine: what engine objects are instances of."""
    import pkgutil

    from gradstep import engine
    from gradstep.engine._names import is_engine_module
    for info in pkgutil.walk_packages(engine.__path__, engine.__name__ + "."):
        if not info.name.endswith("__main__"):
            importlib.import_module(info.name)    # what is loaded must not depend on order
    found = {}
    for mod_name in sorted(sys.modules):
        if not is_engine_module(mod_name) or sys.modules[mod_name] is None:
            continue
        for value in list(vars(sys.modules[mod_name]).values()):
            if isinstance(value, type) and is_engine_module(getattr(value, "__module__", "")):
                found[id(value)] = value
    return sorted(found.values(), key=lambda c: (c.__module__, c.__qualname__))


def _torch_path(cls, table) -> str:
    """Where a program names an engine class (`torch.nn.Linear`), or its qualified name."""
    for dotted in sorted(table.proxies, key=lambda d: (d.count("."), d)):
        if dotted == "engine":
            continue
        for name, value in table.proxies[dotted]._sbx_names.items():
            if value is cls:
                return f"{dotted}.{name}"
    return f"torch.{cls.__qualname__}"


def _callable_attr(cls, name):
    raw = None
    for k in cls.__mro__:
        if name in vars(k):
            raw = vars(k)[name]
            break
    if isinstance(raw, (staticmethod, classmethod)):
        return True
    return callable(raw) and not isinstance(raw, type)


def walk() -> dict[str, list[tuple[str, str, str]]]:
    """{where: [(name, class, why)]} for every callable a program reaches by name."""
    from gradstep.runner import guards, stdlib_modules
    from gradstep.runner.proxies import ModuleProxy, _ModuleTable
    table = _ModuleTable().build(lambda numel, what: None)
    rows: dict[str, list] = collections.defaultdict(list)

    def add(where, name):
        verdict, why = classify(where, name)
        rows[where].append((name, verdict, why))

    safe = guards.Sandbox(print_fn=lambda text: None).globals()["__builtins__"]
    for name, value in safe.items():
        if callable(value):
            add("builtins", name)
    for dotted in sorted(table.proxies):
        if dotted == "engine":          # the same proxy as torch
            continue
        for name, value in table.proxies[dotted]._sbx_names.items():
            if callable(value) and not isinstance(value, ModuleProxy):
                add(dotted, name)
    # methods: of engine classes (where they are defined), plain types, listed types
    for cls in _engine_classes():
        where = _torch_path(cls, table)
        for name in sorted(vars(cls)):
            if not name.startswith("_") and _callable_attr(cls, name):
                add(where, name)
    plain = [t for t in guards.PLAIN_TYPES if t.__module__ == "builtins"] + [str]
    for t in sorted(set(plain), key=lambda t: t.__name__):
        for name in sorted(dir(t)):
            if not name.startswith("_") and _callable_attr(t, name):
                where = f"builtins.{t.__name__}"
                if f"{where}.{name}" in VERDICTS:
                    add(where, name)
                elif t is str and name == "format_map":
                    rows[where].append((name, REFUSED, "resolves fields outside the guard"))
                else:
                    rows[where].append((name, PURE, "method of a plain value"))
    listed = {"numpy.ndarray": (guards.NDARRAY_ATTRS, "array method of the guard's list "
                                                      "(never tofile, dump, ctypes, data, "
                                                      "base, strides, view)"),
              "numpy.generic": (guards.NPSCALAR_ATTRS, "numpy scalar method of the guard's "
                                                       "list (never tofile, dumps, data)")}
    for t, attrs in {**guards.SIGNATURE_ATTRS, **stdlib_modules.RETURNED_ATTRS,
                     **stdlib_modules.CLASS_ATTRS}.items():
        listed[f"{t.__module__}.{t.__qualname__}"] = (attrs, "listed method of a returned "
                                                             "object")
    owners = {"numpy.ndarray": __import__("numpy").ndarray,
              "numpy.generic": __import__("numpy").float64}
    for t in list(guards.SIGNATURE_ATTRS) + list(stdlib_modules.RETURNED_ATTRS) + \
            list(stdlib_modules.CLASS_ATTRS):
        owners[f"{t.__module__}.{t.__qualname__}"] = t
    for where, (attrs, why) in sorted(listed.items()):
        owner = owners[where]
        for name in sorted(attrs):
            value = getattr(owner, name, None)
            if callable(value) and not isinstance(value, type) or (
                    value is not None and inspect.isroutine(value)):
                rows[where].append((name, PURE, why))
    # refused: the withheld names that matter, and why (the rest of what a real module has
    # is withheld too: AttributeError or SecurityError)
    for key, why in REFUSED_WHY.items():
        where, _, name = key.rpartition(".")
        rows[where].append((name, REFUSED, why))
    rows["(imports)"] = [(name, REFUSED, "import refused before the program runs")
                         for name in REFUSED_IMPORTS.split()]
    stale = sorted(set(VERDICTS) - USED)
    if stale:
        raise Unaudited(f"verdicts that name nothing reachable (update dev/sandbox_audit.py): "
                        f"{', '.join(stale)}")
    return rows


def table_markdown(rows) -> str:
    """The audit as a markdown table: one row per place, class and reason."""
    groups: dict = collections.defaultdict(set)
    for where, entries in rows.items():
        for name, verdict, why in entries:
            groups[(where, verdict, why)].add(name)
    order = {GUARDED: 0, REFUSED: 1, PURE: 2}
    lines = ["| where | class | callables | why |", "|---|---|---|---|"]
    for (where, verdict, why), names in sorted(groups.items(),
                                               key=lambda kv: (kv[0][0], order[kv[0][1]],
                                                               kv[0][2])):
        listed = " ".join(f"`{n}`" for n in sorted(names))
        lines.append(f"| `{where}` | {verdict} | {listed} | {why} |")
    counts = collections.Counter(verdict for entries in rows.values()
                                 for _, verdict, _ in entries)
    summary = (f"{sum(counts.values())} callables: {counts[PURE]} pure, {counts[GUARDED]} "
               f"guarded, {counts[REFUSED]} refused.")
    return (f"{summary}\n\n<details><summary>The table (generated by dev/sandbox_audit.py)"
            f"</summary>\n\n" + "\n".join(lines) + "\n\n</details>\n")


def doc_table(text: str) -> str:
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    return text[start:end].strip("\n") + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help="update docs/sandbox.md")
    args = parser.parse_args(argv)
    table = table_markdown(walk())
    if not args.write:
        sys.stdout.write(table)
        return 0
    text = DOC.read_text(encoding="utf-8")
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    DOC.write_text(text[:start] + "\n" + table + text[end:], encoding="utf-8")
    print(f"wrote the audit table into {DOC.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
