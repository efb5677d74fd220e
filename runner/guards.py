"""Run-time object policy: the guards the rewritten program calls, its builtins and modules.

Default deny per type: a program never holds a real module (only `ModuleProxy`s with explicit
allow-lists), attribute reads are allowed per type (engine and user objects: public names;
ndarray: a listed subset; exceptions: `.args`; generators, frames, functions: nothing), writes
only where tutorials make them (Tensor `data`/`grad`/`requires_grad`, user objects, modules).
Violations raise SecurityError. `Sandbox(...).globals()` builds a program's namespace.

Example:
    >>> g = Sandbox(print_fn=lambda text: None).globals()
    >>> g["_sbx_ga"]((1.5), "real")
    1.5
"""
from __future__ import annotations

import builtins
import collections
import inspect
import math
import operator
import random
import string
import sys
import types

import numpy as np

from runner.errors import LimitExceeded, SecurityError
from runner.policy import ALLOWED_MODULES, SAVED_PREFIX

# ---- modules ----------------------------------------------------------------------------


class ModuleProxy:
    """A stand-in for a module: only the listed names, read-only, no path to the real one."""

    __slots__ = ("_sbx_name", "_sbx_names", "_sbx_hidden")

    def __init__(self, name: str, names: dict, hidden=()):
        object.__setattr__(self, "_sbx_name", name)
        object.__setattr__(self, "_sbx_names", dict(names))
        object.__setattr__(self, "_sbx_hidden", frozenset(hidden))

    def _sbx_get(self, attr: str):
        try:
            return self._sbx_names[attr]
        except KeyError:
            pass
        if attr in self._sbx_hidden:
            raise SecurityError(f"module {self._sbx_name!r} has no attribute {attr!r} in the "
                                f"sandbox")
        raise AttributeError(f"module {self._sbx_name!r} has no attribute {attr!r}")

    def __setattr__(self, attr, value):
        raise SecurityError(f"assignment to attribute {attr!r} of module {self._sbx_name!r} "
                            f"is not allowed")

    def __repr__(self):
        return f"<module {self._sbx_name!r}>"


# numpy: arrays and common functions only (research doc 4.4). Never: file I/O (save, load,
# fromfile, memmap ...), f2py, ctypeslib, lib, testing, the ndarray constructor (buffer=).
NUMPY_NAMES = """
    array asarray zeros ones empty full zeros_like ones_like full_like empty_like arange
    linspace eye identity dot matmul inner outer sum mean std var min max amin amax argmin
    argmax abs absolute sqrt exp log log2 log10 log1p expm1 sin cos tan arcsin arccos arctan
    arctan2 sinh cosh tanh maximum minimum clip where concatenate stack vstack hstack
    reshape transpose squeeze expand_dims round around floor ceil mod power outer allclose
    isclose array_equal cumsum cumprod prod sign square float16 float32 float64 int8 int16
    int32 int64 uint8 bool_ complex64 complex128 pi e inf nan newaxis all any sort argsort
    unique diag trace isnan isinf isfinite tile repeat flip einsum meshgrid count_nonzero
    nonzero broadcast_to median percentile tensordot cross diff exp2 negative add subtract
    multiply divide true_divide floor_divide fmax fmin sinc heaviside set_printoptions
""".split()
NUMPY_RANDOM_NAMES = ("seed rand randn randint normal uniform choice shuffle permutation "
                      "random standard_normal").split()
NUMPY_LINALG_NAMES = "inv det norm solve eig eigh svd pinv matrix_rank qr cholesky".split()
NUMPY_HIDDEN = """
    f2py ctypeslib lib testing ma rec char polynomial distutils load save savez
    savez_compressed savetxt loadtxt genfromtxt fromfile frombuffer memmap DataSource info
    show_config get_include ndarray fromregex tofile core _core
""".split()

# Module-level re-exports of the engine that are other modules are never handed out as-is.
TORCH_SUBMODULES = ("torch.nn", "torch.nn.functional", "torch.nn.init", "torch.optim",
                    "torch.autograd", "torch.autograd.functional")

# Factories that allocate what their arguments ask for: the element count is checked against
# max_tensor_elements *before* the engine or numpy allocates anything (see _requested_numel).
SHAPE_FACTORIES = frozenset("zeros ones empty full rand randn standard_normal".split())
SIZED_FACTORIES = frozenset("arange linspace eye identity randperm randint normal uniform "
                            "choice permutation tile".split())


def _public(module, names=None) -> dict:
    names = names if names is not None else getattr(module, "__all__", None)
    if names is None:
        names = [n for n in vars(module) if not n.startswith("_")]
    out = {}
    for n in names:
        try:
            out[n] = getattr(module, n)
        except Exception:   # noqa: BLE001 - a lazy submodule that is not there (yet)
            continue
    return out


class _ModuleTable:
    """Builds the proxies once per process (the zygote) and hands them out by dotted name."""

    def __init__(self):
        self.proxies: dict[str, ModuleProxy] = {}
        self.real_engine_modules: dict[int, str] = {}

    def build(self, element_check):
        import engine
        real = {"torch": engine}
        for dotted in TORCH_SUBMODULES:
            mod = engine
            try:
                for part in dotted.split(".")[1:]:
                    mod = getattr(mod, part)
            except (AttributeError, ImportError):   # a submodule the engine does not have
                continue
            real[dotted] = mod
        self.real_engine_modules = {id(m): name for name, m in real.items()}
        # children before parents, so a parent can hold its children's proxies
        for dotted in sorted(real, key=lambda d: -d.count(".")):
            names = {}
            for name, value in _public(real[dotted]).items():
                if isinstance(value, types.ModuleType):
                    child = self.real_engine_modules.get(id(value))
                    if child in self.proxies:
                        names[name] = self.proxies[child]
                    continue        # other modules (numpy, math ...) are never re-exported
                names[name] = _wrap_factory(name, value, element_check)
            for child_name, proxy in list(self.proxies.items()):
                if child_name.rsplit(".", 1)[0] == dotted:
                    names.setdefault(child_name.rsplit(".", 1)[1], proxy)
            self.proxies[dotted] = ModuleProxy(dotted, names, dir(real[dotted]))
        self.proxies["engine"] = self.proxies["torch"]
        np_random = ModuleProxy("numpy.random", _wrapped(np.random, NUMPY_RANDOM_NAMES,
                                                         element_check), dir(np.random))
        np_linalg = ModuleProxy("numpy.linalg", _public(np.linalg, NUMPY_LINALG_NAMES),
                                dir(np.linalg))
        np_names = _wrapped(np, NUMPY_NAMES, element_check)
        np_names.update(random=np_random, linalg=np_linalg)
        self.proxies.update({
            "numpy": ModuleProxy("numpy", np_names, set(NUMPY_HIDDEN) | set(dir(np))),
            "numpy.random": np_random,
            "numpy.linalg": np_linalg,
            "math": ModuleProxy("math", _public(math)),
            "random": ModuleProxy("random", _public(random, (
                "random uniform randint randrange choice choices shuffle sample seed gauss "
                "normalvariate expovariate betavariate triangular").split()), dir(random)),
            "inspect": ModuleProxy("inspect", {"signature": inspect.signature}, dir(inspect)),
        })
        return self


def _wrapped(module, names, element_check) -> dict:
    return {n: _wrap_factory(n, v, element_check) for n, v in _public(module, names).items()}


def _wrap_factory(name, fn, element_check):
    """Check the element count a factory is asked for before it allocates."""
    if not callable(fn) or isinstance(fn, type) or name not in SHAPE_FACTORIES | SIZED_FACTORIES:
        return fn

    def factory(*args, **kwargs):
        element_check(_requested_numel(name, args, kwargs), name)
        return fn(*args, **kwargs)
    factory.__name__ = getattr(fn, "__name__", name)
    factory.__signature__ = _signature_or_none(fn)
    factory.__doc__ = getattr(fn, "__doc__", None)
    return factory


def _requested_numel(name, args, kwargs) -> int:
    """How many elements a factory call will allocate (0 when it cannot tell)."""
    def arg(i, *keys):
        for k in keys:
            if k in kwargs:
                return kwargs[k]
        return args[i] if len(args) > i else None
    if name in SHAPE_FACTORIES:
        return _shape_numel(args, kwargs)
    if name == "arange":
        return _range_numel(args)
    if name == "linspace":
        return _count(arg(2, "steps", "num"), default=50)
    if name in ("eye", "identity"):
        n = _count(arg(0, "n", "N"))
        m = arg(1, "m", "M")
        return n * (_count(m) if m is not None else n)
    if name in ("randperm", "permutation"):
        return _count(arg(0, "n", "x"))
    if name == "tile":
        reps = arg(1, "reps")
        base = getattr(arg(0, "A"), "size", 1)
        return _count(base) * _shape_numel((reps,), {})
    size = kwargs.get("size", args[1] if name == "choice" and len(args) > 1 else None)
    if size is None:
        tuples = [a for a in args if isinstance(a, (tuple, list))]
        size = tuples[0] if tuples else (args[2] if name != "randint" and len(args) > 2
                                         else None)
    return _shape_numel((size,), {}) if size is not None else 0


def _count(value, default=0) -> int:
    if value is None:
        return default
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return max(0, int(value))
    return 0


def _signature_or_none(fn):
    try:
        return inspect.signature(fn)
    except (TypeError, ValueError):
        return None


def _shape_numel(args, kwargs) -> int:
    shape = kwargs.get("size", kwargs.get("shape"))
    if shape is None:
        dims = []
        for a in args:
            if isinstance(a, (int, np.integer)) and not isinstance(a, bool):
                dims.append(int(a))
            elif isinstance(a, (tuple, list)):
                dims.extend(a)
                break
            else:
                break
        shape = dims
    elif isinstance(shape, (int, np.integer)):
        shape = [shape]
    n = 1
    for d in shape:
        if isinstance(d, (int, np.integer)) and d > 0:
            n *= int(d)
        elif isinstance(d, (int, np.integer)):
            return 0
    return n


def _range_numel(args) -> int:
    nums = [a for a in args if isinstance(a, (int, float, np.number)) and not isinstance(a, bool)]
    try:
        if len(nums) == 1:
            return max(0, math.ceil(nums[0]))
        if len(nums) >= 2:
            step = nums[2] if len(nums) > 2 else 1
            return max(0, math.ceil((nums[1] - nums[0]) / step)) if step else 0
    except (OverflowError, ValueError, TypeError):
        return sys.maxsize
    return 0


# ---- the attribute guard ------------------------------------------------------------------

PLAIN_TYPES = (int, float, complex, bool, list, tuple, dict, set, frozenset, range, slice,
               bytes, type(None), type({}.keys()), type({}.values()), type({}.items()))
NDARRAY_ATTRS = frozenset("""
    shape ndim size dtype T sum mean max min argmax argmin reshape tolist item astype copy
    flatten ravel transpose std var cumsum cumprod dot round clip any all prod squeeze real
    imag fill nbytes itemsize sort argsort nonzero trace diagonal conj
""".split())
NPSCALAR_ATTRS = frozenset("item real imag dtype shape ndim size tolist is_integer".split())
DTYPE_ATTRS = frozenset("name itemsize kind char".split())
SIGNATURE_ATTRS = {
    inspect.Signature: frozenset(("parameters", "return_annotation")),
    inspect.Parameter: frozenset(("name", "default", "annotation", "kind")),
    types.MappingProxyType: frozenset(("keys", "values", "items", "get")),
}
_FUNCTION_TYPES = (types.FunctionType, types.BuiltinFunctionType, types.MethodType,
                   types.BuiltinMethodType, types.MethodWrapperType, types.WrapperDescriptorType,
                   types.MethodDescriptorType, types.ClassMethodDescriptorType)
_INTERNAL_TYPES = (types.ModuleType, types.FrameType, types.CodeType, types.TracebackType,
                   types.GeneratorType, types.CoroutineType, types.AsyncGeneratorType,
                   types.CellType)
USER_MODULE = "__main__"

_SAFE_FORMATTER = None
_INTERNAL_SET = frozenset(_INTERNAL_TYPES)
_PLAIN, _PUBLIC = "plain", "public"
_KINDS: dict = {}       # type -> _PLAIN, _PUBLIC or "" (decide per attribute, slowly)


def _kind_of(t: type) -> str:
    """How attribute reads on instances of `t` are decided (see Guard.getattr)."""
    if t in PLAIN_TYPES or _is_container_subclass(t):
        return _PLAIN
    if issubclass(t, (type, BaseException, ModuleProxy)):
        return ""
    if t is super or _is_engine_type(t) or _is_user_type(t):
        return _PUBLIC
    return ""


class _SafeFormatter(string.Formatter):
    """str.format with plain fields only: `{}`, `{0}`, `{name}`, `{:.3f}`, `{0!r:>8}`."""

    def get_field(self, field_name, args, kwargs):
        if "." in field_name or "[" in field_name:
            raise SecurityError("str.format: attribute or index lookups inside {} fields are "
                                "not allowed")
        if field_name.startswith("_"):
            raise SecurityError("str.format: field names starting with '_' are not allowed")
        return super().get_field(field_name, args, kwargs)


def safe_format(template, /, *args, **kwargs):
    if not isinstance(template, str):
        raise TypeError("descriptor 'format' requires a 'str' object")
    return _SAFE_FORMATTER.vformat(template, args, kwargs)


_SAFE_FORMATTER = _SafeFormatter()


def _deny(obj, name):
    kind = type(obj).__name__ if not isinstance(obj, type) else "type"
    raise SecurityError(f"access to attribute {name!r} of {kind!r} objects is not allowed")


def _is_engine_type(t: type) -> bool:
    mod = getattr(t, "__module__", None) or ""
    return mod == "engine" or mod.startswith("engine.")


def _is_container_subclass(t: type) -> bool:
    """OrderedDict (state_dict()), defaultdict, Counter, deque: the standard containers."""
    return (t.__module__ == "collections"
            and issubclass(t, (dict, list, tuple, set, frozenset, collections.deque)))


def _user_defined(obj, name: str) -> bool:
    """Whether the program itself set or defined `name` on this object or its own classes
    (never what builtins like BaseException provide: with_traceback, AttributeError.obj)."""
    if name in getattr(obj, "__dict__", ()):
        return True
    return any(_is_user_type(k) and name in vars(k) for k in type(obj).__mro__)


def _is_user_type(t: type) -> bool:
    return getattr(t, "__module__", None) == USER_MODULE


class Guard:
    """The attribute read/write policy; one per program run (it knows the engine's types)."""

    def __init__(self, table: _ModuleTable):
        import engine
        self.tensor_type = engine.Tensor
        self.table = table
        self.proxy_by_module_id = {m_id: table.proxies[name]
                                   for m_id, name in table.real_engine_modules.items()
                                   if name in table.proxies}

    # -- reads --
    def getattr(self, obj, name):
        """`obj.name` as the program wrote it, or SecurityError."""
        # Fast path for the common case, a public name on an engine or user object, or on a
        # plain value: one dict look-up decides (the type's kind is cached on first use).
        t = type(obj)
        kind = _KINDS.get(t)
        if kind is None:
            kind = _KINDS[t] = _kind_of(t)
        if kind and type(name) is str and name[:1] != "_":
            value = getattr(obj, name)
            if kind is _PLAIN or type(value) not in _INTERNAL_SET:
                return value
            return self._checked(obj, name, value)
        return self._getattr_slow(obj, t, name)

    def _getattr_slow(self, obj, t, name):
        if t is ModuleProxy:
            return obj._sbx_get(name)
        if not isinstance(name, str):
            raise TypeError("attribute name must be string")
        if name.startswith("_"):
            return self._underscore(obj, t, name)
        if isinstance(obj, type):
            return self._class_attr(obj, name)
        if t is str:
            if name == "format":
                return lambda *a, **k: safe_format(obj, *a, **k)
            if name == "format_map":
                _deny(obj, name)
            return getattr(obj, name)
        if t in PLAIN_TYPES or _is_container_subclass(t):
            return getattr(obj, name)
        if isinstance(obj, BaseException):
            if name == "args":
                return obj.args
            if _user_defined(obj, name):     # `self.code = code` in the program's own class
                return self._checked(obj, name, getattr(obj, name))
            _deny(obj, name)
        if t is np.ndarray:
            if name in NDARRAY_ATTRS:
                return getattr(obj, name)
            _deny(obj, name)
        if isinstance(obj, np.generic):
            if name in NPSCALAR_ATTRS:
                return getattr(obj, name)
            _deny(obj, name)
        if isinstance(obj, np.dtype):
            if name in DTYPE_ATTRS:
                return getattr(obj, name)
            _deny(obj, name)
        if t in SIGNATURE_ATTRS:
            if name in SIGNATURE_ATTRS[t]:
                return getattr(obj, name)
            _deny(obj, name)
        if t is super or _is_engine_type(t) or _is_user_type(t):
            return self._checked(obj, name, getattr(obj, name))
        _deny(obj, name)

    def _underscore(self, obj, t, name):
        if name == "__name__":
            if isinstance(obj, type) or isinstance(obj, _FUNCTION_TYPES):
                return str(obj.__name__)
        elif name == "__class__":     # what the allowed type(obj) gives, never a metaclass
            if not isinstance(obj, type) and t not in (ModuleProxy, _Writer):
                return t
        elif name == "__init__":
            if t is super or (isinstance(obj, type) and (_is_engine_type(obj)
                                                         or _is_user_type(obj))):
                return getattr(obj, name)
        elif name.startswith(SAVED_PREFIX) and _is_engine_type(t) and not name.endswith("__"):
            return self._checked(obj, name, getattr(obj, name))
        elif name == "_version" and isinstance(obj, self.tensor_type):
            return obj._version
        _deny(obj, name)

    def _class_attr(self, cls, name):
        if name == "mro":
            _deny(cls, name)
        if cls is str and name == "format":
            return safe_format
        if cls is str and name == "format_map":
            _deny(cls, name)
        if cls in PLAIN_TYPES or cls is str or _is_engine_type(cls) or _is_user_type(cls):
            return self._checked(cls, name, getattr(cls, name))
        _deny(cls, name)

    def _checked(self, obj, name, value):
        """Engine and user objects may hold anything; never hand out interpreter internals."""
        if isinstance(value, _INTERNAL_TYPES):
            if isinstance(value, types.GeneratorType):
                return value        # e.g. Module.parameters(); its own attributes are denied
            if isinstance(value, types.ModuleType):
                proxy = self.proxy_by_module_id.get(id(value))
                if proxy is not None:
                    return proxy
            _deny(obj, name)
        return value

    # -- writes --
    def setattr(self, obj, name, value):
        t = type(obj)
        if not isinstance(name, str) or name.startswith("_"):
            raise SecurityError(f"assignment to attribute {name!r} is not allowed")
        if t is ModuleProxy:
            obj.__setattr__(name, value)
        if isinstance(obj, self.tensor_type) and not _is_user_type(t):
            if name in ("data", "grad", "requires_grad"):
                return setattr(obj, name, value)
        elif isinstance(obj, type):
            if _is_user_type(obj):
                return setattr(obj, name, value)
        elif _is_user_type(t) or _is_engine_type(t):
            return setattr(obj, name, value)
        kind = "type" if isinstance(obj, type) else t.__name__
        raise SecurityError(f"assignment to attribute {name!r} of {kind!r} objects is not "
                            f"allowed")


class _Writer:
    """`a.b = v` is rewritten to `_sbx_w(a)["b"] = v` so every target position is guarded."""

    __slots__ = ("obj", "guard")

    def __init__(self, obj, guard):
        self.obj, self.guard = obj, guard

    def __setitem__(self, name, value):
        self.guard.setattr(self.obj, name, value)


# ---- builtins -----------------------------------------------------------------------------

SAFE_BUILTIN_NAMES = """
    range len abs min max sum round divmod pow int float complex bool str list dict tuple
    set frozenset enumerate zip map filter sorted reversed any all isinstance issubclass iter
    next repr format chr ord hex bin oct slice callable hash id ascii staticmethod property
    super NotImplemented Ellipsis Exception ValueError TypeError ZeroDivisionError IndexError
    KeyError RuntimeError StopIteration AssertionError ArithmeticError NotImplementedError
    AttributeError NameError OverflowError MemoryError RecursionError LookupError
    UnboundLocalError FloatingPointError Warning UserWarning DeprecationWarning
    RuntimeWarning ImportError ModuleNotFoundError
""".split()


class Sandbox:
    """Everything one run's program can reach: its globals, builtins, modules and guards."""

    _table: _ModuleTable | None = None

    def __init__(self, print_fn, max_tensor_elements: int = 10**7):
        self.print_fn = print_fn
        self.max_tensor_elements = max_tensor_elements
        if Sandbox._table is None:
            Sandbox._table = _ModuleTable().build(Sandbox._element_check)
        self.guard = Guard(Sandbox._table)

    # Factories are wrapped once per process; the current run's limit is read at call time.
    current_max_elements = 10**7

    @staticmethod
    def _element_check(numel: int, what: str):
        if numel > Sandbox.current_max_elements:
            raise LimitExceeded("tensor_elements",
                                f"{what}() asked for {numel} elements; the tensor elements "
                                f"limit is {Sandbox.current_max_elements}")

    def import_module(self, dotted: str):
        try:
            return Sandbox._table.proxies[dotted]
        except KeyError:
            pass
        if dotted in ALLOWED_MODULES:       # allowed, but this engine does not provide it
            raise ModuleNotFoundError(f"No module named {dotted!r}")
        raise SecurityError(f"import of {dotted!r} is not allowed")

    def import_from(self, dotted: str, name: str):
        module = self.import_module(dotted)
        full = f"{dotted}.{name}"
        if full in Sandbox._table.proxies:
            return Sandbox._table.proxies[full]
        try:
            return module._sbx_get(name)
        except AttributeError:
            raise ImportError(f"cannot import name {name!r} from {dotted!r}") from None

    def print(self, *args, sep=" ", end="\n", file=None, flush=False):
        if file is not None:
            raise SecurityError("print(file=...) is not allowed; print writes to the output")
        if sep is None:
            sep = " "
        if end is None:
            end = "\n"
        if not isinstance(sep, str):
            raise TypeError(f"sep must be None or a string, not {type(sep).__name__}")
        if not isinstance(end, str):
            raise TypeError(f"end must be None or a string, not {type(end).__name__}")
        self.print_fn(sep.join(map(str, args)) + end)

    def type(self, *args):
        if len(args) != 1:
            raise SecurityError("type() with more than one argument is not allowed")
        t = type(args[0])
        if issubclass(t, type) or t in (ModuleProxy, _Writer):
            raise SecurityError("type() of a class or module is not allowed")
        return t

    def getattr(self, obj, name, *default):
        try:
            return self.guard.getattr(obj, name)
        except AttributeError:
            if default:
                return default[0]
            raise

    def hasattr(self, obj, name):
        try:
            self.guard.getattr(obj, name)
            return True
        except AttributeError:
            return False

    def base(self, cls):
        """A class statement's base must be a class the tutorials subclass."""
        import engine
        allowed = [Exception]
        for owner, name in ((getattr(engine, "nn", None), "Module"),
                            (getattr(engine, "autograd", None), "Function")):
            if isinstance(getattr(owner, name, None), type):
                allowed.append(getattr(owner, name))
        if not isinstance(cls, type) or issubclass(cls, type) or not (
                _is_user_type(cls) or issubclass(cls, tuple(allowed))):
            name = getattr(cls, "__name__", type(cls).__name__)
            raise SecurityError(f"classes may subclass nn.Module, autograd.Function, "
                                f"an exception or your own classes, not {name!r}")
        return cls

    def aug(self, obj, name, op, value):
        current = self.guard.getattr(obj, name)
        self.guard.setattr(obj, name, getattr(operator, op)(current, value))

    def internal_import(self, name, globals=None, locals=None, fromlist=(), level=0):
        """numpy's C methods import helpers through the caller's builtins; only modules that
        are already loaded and belong to numpy are handed back, and user code cannot name
        this function (it is `__import__`)."""
        if level == 0 and (name == "numpy" or name.startswith("numpy.")) and name in sys.modules:
            return builtins.__import__(name, globals, locals, fromlist, level)
        raise ImportError(f"import of {name!r} is not allowed")

    def globals(self) -> dict:
        safe = {n: getattr(builtins, n) for n in SAFE_BUILTIN_NAMES}
        safe.update({
            "print": self.print, "type": self.type, "getattr": self.getattr,
            "hasattr": self.hasattr, "setattr": self.guard.setattr,
            "__build_class__": builtins.__build_class__, "__import__": self.internal_import,
            "__name__": "builtins",
        })
        guard = self.guard
        return {
            "__name__": USER_MODULE, "__builtins__": safe, "__doc__": None,
            "_sbx_ga": guard.getattr, "_sbx_w": lambda obj: _Writer(obj, guard),
            "_sbx_aug": self.aug, "_sbx_import": self.import_module,
            "_sbx_from": self.import_from, "_sbx_base": self.base,
        }
