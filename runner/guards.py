"""Run-time object policy: the guards the rewritten program calls, and its builtins.

Default deny per type: a program never holds a real module (only `ModuleProxy`s with explicit
allow-lists, `runner.proxies`), attribute reads are allowed per type (engine and user
objects: public names; ndarray: a listed subset; exceptions: `.args`; generators, frames,
functions: nothing), writes only where tutorials make them (Tensor `data`/`grad`/
`requires_grad`, user objects, modules). Violations raise SecurityError.
`Sandbox(...).globals()` builds a program's namespace.

Example:
    >>> g = Sandbox(print_fn=lambda text: None).globals()
    >>> g["_sbx_ga"]((1.5), "real")
    1.5
"""
from __future__ import annotations

import _string
import abc
import builtins
import collections
import enum
import inspect
import operator
import string
import sys
import types
import typing

import numpy as np

from gradstep.engine._names import is_engine_module
from gradstep.runner.errors import LimitExceeded, SecurityError, raise_pending
from gradstep.runner.policy import (
    ALLOWED_MODULES, SAVED_PREFIX, SPARSE_TENSOR_METHODS, attribute_refusal,
)
from gradstep.runner.proxies import ModuleProxy, _ModuleTable
from gradstep.runner.stdlib_modules import BASE_CLASSES, CLASS_ATTRS, RETURNED_ATTRS

# ---- the attribute guard ------------------------------------------------------------------

PLAIN_TYPES: tuple[type, ...] = (
    int, float, complex, bool, list, tuple, dict, set, frozenset, range, slice, bytes,
    type(None), type({}.keys()), type({}.values()), type({}.items()))
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

_INTERNAL_SET = frozenset(_INTERNAL_TYPES)
_FUNCTION_SET = frozenset((types.FunctionType, types.BuiltinFunctionType, np.ufunc))
# values an engine or user attribute may hold that Guard._checked looks at: classes too, so
# that one the engine keeps (np.ndarray, say) is handed out only as a ClassView
_CHECKED_SET = _INTERNAL_SET | _FUNCTION_SET | {type, abc.ABCMeta, enum.EnumType}
_PLAIN, _PUBLIC = "plain", "public"

# Functions an engine or user object must never hand out, even as a public attribute (say a
# class that kept `loader = np.load`): file and process access, and the builtins the policy
# bans. Checked by identity and by defining module, so a new engine attribute cannot leak one.
_FORBIDDEN_FUNCTIONS = frozenset(id(f) for f in (
    eval, exec, compile, open, __import__, getattr, setattr, delattr, globals, locals, vars,
    breakpoint, input, np.save, np.load, np.savez, np.savez_compressed, np.savetxt,
    np.loadtxt, np.genfromtxt, np.fromfile, np.fromregex))
_FORBIDDEN_MODULE_ROOTS = frozenset("""
    os posix nt io _io sys subprocess shutil pathlib ctypes _ctypes pickle _pickle marshal
    importlib socket signal threading _thread multiprocessing tempfile glob gc
""".split())
_FORBIDDEN_NUMPY = ("numpy.lib._npyio_impl", "numpy.lib.npyio", "numpy.lib.format",
                    "numpy.lib._format_impl", "numpy.ctypeslib", "numpy.f2py", "numpy.testing",
                    "numpy.lib._datasource", "numpy.lib.stride_tricks",
                    "numpy.lib._stride_tricks_impl")


def _forbidden_function(value) -> bool:
    if id(value) in _FORBIDDEN_FUNCTIONS:
        return True
    module = getattr(value, "__module__", None)
    if not isinstance(module, str):
        return False
    return module.split(".")[0] in _FORBIDDEN_MODULE_ROOTS or module.startswith(_FORBIDDEN_NUMPY)


_KINDS: dict = {}       # type -> _PLAIN, _PUBLIC or "" (decide per attribute, slowly)


def _kind_of(t: type) -> str:
    """How attribute reads on instances of `t` are decided (see Guard.getattr)."""
    if t in PLAIN_TYPES or _is_container_subclass(t):
        return _PLAIN
    if issubclass(t, (type, BaseException, ModuleProxy)):
        return ""
    if _is_engine_type(t) or _is_user_type(t):
        return _PUBLIC
    return ""


class _SafeFormatter(string.Formatter):
    """str.format whose fields read attributes through the guard: `{0}`, `{name}`,
    `{0[0]}`, `{p[lr]}`, `{0.shape}`, `{:.3f}`. A field's `.attr` is the program's `a.attr`
    (the same names refused, the same objects handed out), `[key]` its `a[key]`: a format
    string reaches nothing the program could not reach by writing the expression itself."""

    def __init__(self, read_attribute):
        self.read_attribute = read_attribute

    def get_field(self, field_name, args, kwargs):
        first, rest = _string.formatter_field_name_split(field_name)
        if isinstance(first, str) and first.startswith("_"):
            raise SecurityError("str.format: field names starting with '_' are not allowed")
        obj = self.get_value(first, args, kwargs)
        for is_attr, key in rest:
            if is_attr:
                why = attribute_refusal(key)
                if why:
                    raise SecurityError(f"str.format: {why}")
                obj = self.read_attribute(obj, key)
            else:
                obj = obj[key]
        return obj, first

    def bound(self, template):
        """`template.format` as the program gets it."""
        def format(*args, **kwargs):        # the name the method has
            return self.vformat(template, args, kwargs)
        return format

    def unbound(self, template, /, *args, **kwargs):
        """`str.format` (the class's function) as the program gets it."""
        if not isinstance(template, str):
            raise TypeError("descriptor 'format' requires a 'str' object")
        return self.vformat(template, args, kwargs)


def _deny(obj, name):
    kind = type(obj).__name__ if not isinstance(obj, (type, ClassView)) else "type"
    raise SecurityError(f"access to attribute {name!r} of {kind!r} objects is not allowed")


def _is_engine_type(t: type) -> bool:
    # The engine names many of its classes as PyTorch does (`torch.Tensor`, `torch.Size`,
    # `torch.autograd.grad_mode.no_grad`) so that they print the same; real torch is never
    # importable in the sandbox and user classes cannot set __module__ (a dunder), so a
    # "torch" module means the engine too.
    mod = getattr(t, "__module__", None) or ""
    return is_engine_module(mod)


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


# ---- classes: what type(x) and x.__class__ hand out ----------------------------------------

# Builtin classes whose constructors take only values: the program may hold and call them.
_CALLABLE_BUILTIN_CLASSES = frozenset((
    str, bool, enumerate, zip, map, filter, reversed, property, staticmethod, super,
    type(NotImplemented), type(Ellipsis)))
# Never public, whoever subclasses them (an engine class deriving from ndarray would inherit
# its buffer= and offset= constructor).
_RAW_CLASSES = (np.ndarray, np.generic, np.dtype, memoryview, bytearray)
_PUBLIC_CLASSES: dict = {}      # class -> bool, decided once per class
_VIEWS: dict = {}               # class -> its ClassView, so `type(a) is type(b)` holds


def _public_class(cls: type) -> bool:
    """Whether `type(x)` may return the class itself: plain values, exceptions, the engine's
    and the program's own classes. Never numpy's (ndarray(buffer=, offset=, strides=) reads
    and writes raw memory), the function, code or frame classes, or anything not listed."""
    known = _PUBLIC_CLASSES.get(cls)
    if known is None:
        known = _PUBLIC_CLASSES[cls] = not issubclass(cls, _RAW_CLASSES) and bool(
            cls in PLAIN_TYPES or cls in _CALLABLE_BUILTIN_CLASSES
            or _is_container_subclass(cls)
            or (issubclass(cls, BaseException) and not issubclass(cls, (SecurityError,
                                                                         LimitExceeded)))
            or _is_engine_type(cls) or _is_user_type(cls))
    return known


class ClassView:
    """What `type(x)` gives for a class the program may look at but not use.

    It prints as the class, works in `isinstance` and `issubclass` (second argument) and
    has a `__name__`; it cannot be called, subclassed, or asked for anything else, so no
    constructor that takes raw buffers, offsets or code is reachable through it.

        >>> v = class_of(np.zeros(1)); v, v.__name__, isinstance(np.ones(2), v)
        (<class 'numpy.ndarray'>, 'ndarray', True)
    """

    __slots__ = ("_sbx_cls",)
    _sbx_cls: type

    def __init__(self, cls: type):
        object.__setattr__(self, "_sbx_cls", cls)

    @property
    def __name__(self):  # read by the guard for `type(x).__name__`
        return str(self._sbx_cls.__name__)

    def __repr__(self):
        return repr(self._sbx_cls)

    def __instancecheck__(self, obj):
        return isinstance(obj, self._sbx_cls)

    def __subclasscheck__(self, cls):
        return issubclass(cls._sbx_cls if type(cls) is ClassView else cls, self._sbx_cls)

    def __call__(self, *args, **kwargs):
        raise SecurityError(f"{self._sbx_cls.__name__!r} objects cannot be made through "
                            f"type(); use the library's own functions (np.array, np.zeros, "
                            f"torch.tensor ...)")

    def __setattr__(self, name, value):
        raise SecurityError(f"assignment to attribute {name!r} of a class is not allowed")

    def __copy__(self):
        return self         # a class copies as itself, in copy.copy and copy.deepcopy

    def __deepcopy__(self, memo):
        return self


def class_of(obj):
    """`type(obj)` as the program sees it: the class, or a ClassView of it."""
    return shown_class(type(obj))


def shown_class(cls: type):
    """The class itself if the program may use it, else its (one) ClassView."""
    if _public_class(cls):
        return cls
    view = _VIEWS.get(cls)
    if view is None:
        view = _VIEWS[cls] = ClassView(cls)
    return view


class RunIds:
    """`id()` and the default `hash()` of one run: numbers handed out in order of first use,
    equal for the same live object and different for two live objects (as CPython's ids),
    never a memory address."""

    __slots__ = ("numbers",)

    def __init__(self):
        self.numbers: dict = {}

    def id(self, obj, /) -> int:
        key = id(obj)
        number = self.numbers.get(key)
        if number is None:
            number = self.numbers[key] = 0x1000 + 16 * len(self.numbers)
        return number

    def hash(self, obj, /) -> int:
        value = hash(obj)       # raises TypeError for unhashable objects, as hash() does
        t = type(obj)
        if (t.__hash__ is object.__hash__  # type: ignore[comparison-overlap]
                or t in _ADDRESS_HASHED
                or isinstance(obj, _FUNCTION_TYPES)):
            return self.id(obj) >> 4
        return value


# classes whose hash comes from object addresses without inheriting object.__hash__
_ADDRESS_HASHED = frozenset((types.MethodType, types.BuiltinMethodType, types.FunctionType))


class Guard:
    """The attribute read/write policy; one per program run (it knows the engine's types)."""

    def __init__(self, table: _ModuleTable):
        from gradstep import engine
        self.tensor_type = engine.Tensor
        self.table = table
        self.proxy_by_module_id = {m_id: table.proxies[name]
                                   for m_id, name in table.real_engine_modules.items()
                                   if name in table.proxies}
        self.formatter = _SafeFormatter(self.getattr)

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
            vt = type(value)
            if kind is _PLAIN or vt not in _CHECKED_SET:
                return value
            return self._checked(obj, name, value)
        return self._getattr_slow(obj, t, name)

    def _getattr_slow(self, obj, t, name):
        raise_pending()
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
                return self.formatter.bound(obj)
            if name == "format_map":
                _deny(obj, name)
            return getattr(obj, name)
        if t in PLAIN_TYPES or _is_container_subclass(t):
            return getattr(obj, name)
        if isinstance(obj, BaseException):
            if name == "args":      # a library's exception may carry any object: checked
                return tuple(self._checked(obj, name, arg) for arg in obj.args)
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
        if t in SIGNATURE_ATTRS:        # a default or annotation may be any object: checked
            if name in SIGNATURE_ATTRS[t]:
                return self._checked(obj, name, getattr(obj, name))
            _deny(obj, name)
        if t in RETURNED_ATTRS:         # re.Match, re.Pattern ...: a listed subset
            if name in RETURNED_ATTRS[t]:
                return self._checked(obj, name, getattr(obj, name))
            _deny(obj, name)
        if t is super:
            return self._checked(obj, name, getattr(_user_super(obj, name), name))
        if _is_engine_type(t) or _is_user_type(t):
            return self._checked(obj, name, getattr(obj, name))
        _deny(obj, name)

    def _underscore(self, obj, t, name):
        if name == "__name__":
            if isinstance(obj, (type, ClassView)) or isinstance(obj, _FUNCTION_TYPES):
                return str(obj.__name__)
        elif name == "__class__":     # what the allowed type(obj) gives, never a metaclass
            if not isinstance(obj, type) and t not in (ModuleProxy, _Writer, ClassView):
                return class_of(obj)
        elif name == "__init__":
            if t is super:
                return getattr(_user_super(obj, name), name)
            if isinstance(obj, type) and (_is_engine_type(obj) or _is_user_type(obj)):
                return getattr(obj, name)
        elif name.startswith(SAVED_PREFIX) and _is_engine_type(t) and not name.endswith("__"):
            return self._checked(obj, name, getattr(obj, name))
        elif name == "_version" and isinstance(obj, self.tensor_type):
            return obj._version
        elif name == "_base" and isinstance(obj, self.tensor_type):     # a view's base tensor
            return obj._base
        elif name in SPARSE_TENSOR_METHODS and isinstance(obj, self.tensor_type):
            return getattr(obj, name)
        elif name == "__version__" and t is ModuleProxy:    # a str the table put there
            return obj._sbx_get(name)
        _deny(obj, name)

    def _class_attr(self, cls, name):
        if name == "mro":
            _deny(cls, name)
        if cls is str and name == "format":
            return self.formatter.unbound
        if cls is str and name == "format_map":
            _deny(cls, name)
        if (cls in PLAIN_TYPES or cls is str or _is_engine_type(cls) or _is_user_type(cls)
                or name in CLASS_ATTRS.get(cls, ())):
            return self._checked(cls, name, getattr(cls, name))
        _deny(cls, name)

    def _checked(self, obj, name, value):
        """Engine and user objects may hold anything; never hand out interpreter internals,
        nor a class the program may not call (a ClassView stands in for it)."""
        if isinstance(value, type):
            return shown_class(value)
        if type(value) in _FUNCTION_SET and _forbidden_function(value):
            _deny(obj, name)
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
        self._writable(obj, name, "assignment to")
        setattr(obj, name, value)

    def delattr(self, obj, name):
        """`del a.b` and `delattr(a, name)`: where a program may write, it may delete."""
        self._writable(obj, name, "deletion of")
        delattr(obj, name)

    def _writable(self, obj, name, what: str) -> None:
        """Refuse a write or delete of `obj.name` unless tutorials make it: Tensor `data`/
        `grad`/`requires_grad`, the program's own objects and classes, engine objects."""
        raise_pending()
        t = type(obj)
        if not isinstance(name, str) or name.startswith("_"):
            raise SecurityError(f"{what} attribute {name!r} is not allowed")
        if t is ModuleProxy:
            raise SecurityError(f"{what} attribute {name!r} of module {obj._sbx_name!r} is not "
                                f"allowed")
        if isinstance(obj, self.tensor_type) and not _is_user_type(t):
            if name in ("data", "grad", "requires_grad"):
                return
        elif isinstance(obj, type):
            if _is_user_type(obj):
                return
        elif _is_user_type(t) or _is_engine_type(t):
            return
        kind = "type" if isinstance(obj, type) else t.__name__
        raise SecurityError(f"{what} attribute {name!r} of {kind!r} objects is not allowed")


def _user_super(obj: super, name: str) -> super:
    """A super object is read only inside the program's own class hierarchy (`super().
    __init__()` in a Module or an exception): `super(np.float64, x)` would reach numpy's
    attributes behind the allow-list of the scalar's own type."""
    if not _is_user_type(obj.__thisclass__):  # type: ignore[attr-defined]
        _deny(obj, name)
    return obj


class _Writer:
    """`a.b = v` is rewritten to `_sbx_w(a)["b"] = v` so every target position is guarded."""

    __slots__ = ("obj", "guard")

    def __init__(self, obj, guard):
        self.obj, self.guard = obj, guard

    def __setitem__(self, name, value):
        self.guard.setattr(self.obj, name, value)


# ---- builtins -----------------------------------------------------------------------------

SAFE_BUILTIN_NAMES = """
    range len abs min max sum round divmod pow int float complex bool str bytes list dict tuple
    set frozenset enumerate zip map filter sorted reversed any all isinstance issubclass iter
    next repr format chr ord hex bin oct slice callable hash id ascii staticmethod property
    super NotImplemented Ellipsis Exception ValueError TypeError ZeroDivisionError IndexError
    KeyError RuntimeError StopIteration AssertionError ArithmeticError NotImplementedError
    AttributeError NameError OverflowError MemoryError RecursionError LookupError
    UnboundLocalError FloatingPointError Warning UserWarning DeprecationWarning
    RuntimeWarning ImportError ModuleNotFoundError
""".split()


# `a.b op= v` by the AST operator's name (policy._Rewriter.visit_AugAssign)
_IN_PLACE = {
    "Add": operator.iadd, "Sub": operator.isub, "Mult": operator.imul,
    "MatMult": operator.imatmul, "Div": operator.itruediv, "FloorDiv": operator.ifloordiv,
    "Mod": operator.imod, "Pow": operator.ipow, "LShift": operator.ilshift,
    "RShift": operator.irshift, "BitOr": operator.ior, "BitXor": operator.ixor,
    "BitAnd": operator.iand,
}


def _check_name(builtin: str, name, load: bool = True) -> None:
    if not isinstance(name, str):
        raise TypeError(f"attribute name must be string, not {type(name).__name__!r}")
    why = attribute_refusal(name, load)
    if why:
        raise SecurityError(f"{builtin}(): {why}")


class Sandbox:
    """Everything one run's program can reach: its globals, builtins, modules and guards."""

    _table: _ModuleTable | None = None

    def __init__(self, print_fn, max_tensor_elements: int = 10**7):
        self.print_fn = print_fn
        self.max_tensor_elements = max_tensor_elements
        if Sandbox._table is None:
            Sandbox._table = _ModuleTable().build(Sandbox._element_check)
        self.guard = Guard(Sandbox._table)
        self.ids = RunIds()

    # Factories are wrapped once per process; the current run's limit is read at call time.
    current_max_elements = 10**7

    @staticmethod
    def _element_check(numel: int, what: str):
        if numel > Sandbox.current_max_elements:
            raise LimitExceeded("tensor_elements",
                                f"{what}() asked for {numel} elements; the tensor elements "
                                f"limit is {Sandbox.current_max_elements}")

    def import_module(self, dotted: str):
        raise_pending()
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
        except AttributeError as e:
            # keep the proxy's word when real PyTorch has the name ("... does not implement")
            said = str(e).partition(": ")[2]
            raise ImportError(f"cannot import name {name!r} from {dotted!r}"
                              + (f": {said}" if said else "")) from None

    def print(self, *args, sep=" ", end="\n", file=None, flush=False):
        raise_pending()
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
        # a list, not map(str, args): a StopIteration raised by a __str__ (or a numpy print
        # formatter) would end map's iteration and vanish, where Python's print raises it
        self.print_fn(sep.join([str(arg) for arg in args]) + end)

    def type(self, *args):
        raise_pending()
        if len(args) != 1:
            raise SecurityError("type() with more than one argument is not allowed")
        t = type(args[0])
        if issubclass(t, type) or t in (ModuleProxy, _Writer, ClassView):
            raise SecurityError("type() of a class or module is not allowed")
        return class_of(args[0])

    def getattr(self, obj, name, *default):
        """getattr() with a literal or computed name: public names, and the few underscore
        names PyTorch shows (`_version`, `_saved_self`); never a private or dunder one."""
        _check_name("getattr", name)
        try:
            return self.guard.getattr(obj, name)
        except AttributeError:
            if default:
                return default[0]
            raise

    def hasattr(self, obj, name):
        _check_name("hasattr", name)
        try:
            self.guard.getattr(obj, name)
            return True
        except AttributeError:
            return False

    def setattr(self, obj, name, value):
        _check_name("setattr", name, load=False)
        self.guard.setattr(obj, name, value)

    def delattr(self, obj, name):
        _check_name("delattr", name, load=False)
        self.guard.delattr(obj, name)

    def base(self, cls):
        """A class statement's base must be a class the tutorials subclass."""
        from gradstep import engine
        if getattr(type(cls), "__module__", None) == "typing" and \
                getattr(cls, "__origin__", None) is typing.Generic:
            return cls          # `class Box(Generic[T])`: Python turns it into Generic
        allowed = [Exception, *BASE_CLASSES]
        for owner, name in ((getattr(engine, "nn", None), "Module"),
                            (getattr(engine, "autograd", None), "Function"),
                            (getattr(engine.utils, "data", None), "Dataset")):
            if isinstance(getattr(owner, name, None), type):
                allowed.append(getattr(owner, name))
        if not isinstance(cls, type) or issubclass(cls, type) or not (
                _is_user_type(cls) or issubclass(cls, tuple(allowed))):
            name = getattr(cls, "__name__", type(cls).__name__)
            raise SecurityError(f"classes may subclass nn.Module, autograd.Function, "
                                f"utils.data.Dataset, an exception, Enum, ABC, Generic or "
                                f"your own classes, not {name!r}")
        return cls

    def aug(self, obj, name, op, value):
        """`obj.name op= value`: read, the in-place operator (`t.data *= mask` changes the
        tensor itself, as in Python), write back."""
        current = self.guard.getattr(obj, name)
        self.guard.setattr(obj, name, _IN_PLACE[op](current, value))

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
            "hasattr": self.hasattr, "setattr": self.setattr, "delattr": self.delattr,
            "id": self.ids.id,
            "hash": self.ids.hash,
            "__build_class__": builtins.__build_class__, "__import__": self.internal_import,
            "__name__": "builtins",
        })
        guard = self.guard
        return {
            "__name__": USER_MODULE, "__builtins__": safe, "__doc__": None,
            "_sbx_ga": guard.getattr, "_sbx_w": lambda obj: _Writer(obj, guard),
            "_sbx_del": guard.delattr,
            "_sbx_aug": self.aug, "_sbx_import": self.import_module,
            "_sbx_from": self.import_from, "_sbx_base": self.base,
        }
