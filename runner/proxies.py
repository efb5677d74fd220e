"""Module proxies: what `import torch` / `import numpy as np` hand a program instead of modules.

A `ModuleProxy` holds an explicit allow-list of names and nothing else: no path to the real
module, its globals or the modules it imported (numpy's `f2py.os`, the engine's `np`). The
table is built once per worker from the engine's `__all__` and curated numpy, math, random
and inspect lists. Factories that allocate are wrapped so the tensor-elements limit is
checked before anything is allocated.

Example:
    >>> np_proxy = ModuleProxy("numpy", {"pi": 3.14}, hidden=("save",))
    >>> np_proxy._sbx_get("pi")
    3.14
"""
from __future__ import annotations

import collections
import copy
import inspect
import math
import random
import sys
import types

import numpy as np

from gradstep.engine._served import SERVED
from gradstep.engine.unsupported import missing_attribute
from gradstep.runner.errors import SecurityError

_RUNNER = __package__ + "."     # the runner's own objects are internal, never a user's


class ModuleProxy:
    """A stand-in for a module: only the listed names, read-only, no path to the real one."""

    __slots__ = ("_sbx_name", "_sbx_names", "_sbx_hidden")
    # set once in __init__ through object.__setattr__, since __setattr__ refuses every write
    _sbx_name: str
    _sbx_names: dict
    _sbx_hidden: frozenset

    def __init__(self, name: str, names: dict, hidden=()):
        object.__setattr__(self, "_sbx_name", name)
        object.__setattr__(self, "_sbx_names", dict(names))
        object.__setattr__(self, "_sbx_hidden", frozenset(hidden))

    def _sbx_get(self, attr: str):
        try:
            return self._sbx_names[attr]
        except KeyError:
            pass
        # a name the real module has but the sandbox withholds (np.save, torch.optim's engine
        # submodule `sgd`); PyTorch's own modules lack most such engine names, so a program
        # that misspells `torch.optim.SGD` as `sgd` gets PyTorch's AttributeError
        if attr in self._sbx_hidden and not self._sbx_name.startswith("torch"):
            raise SecurityError(f"module {self._sbx_name!r} has no attribute {attr!r} in the "
                                f"sandbox")
        # name and obj, as Python sets them, for the runner's "Did you mean" (suggestions.py)
        raise AttributeError(missing_attribute(self._sbx_name, attr), name=attr, obj=self)

    def __setattr__(self, attr, value):
        raise SecurityError(f"assignment to attribute {attr!r} of module {self._sbx_name!r} "
                            f"is not allowed")

    def __repr__(self):
        return f"<module {self._sbx_name!r}>"

    def __reduce_ex__(self, protocol):
        # what pickling a module says, so torch.save of an object holding one fails as in
        # PyTorch (the sandbox's own copy.deepcopy shares proxies before it gets here)
        raise TypeError("cannot pickle 'module' object")


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

COLLECTIONS_NAMES = ("OrderedDict", "defaultdict", "Counter", "deque")

# Module-level re-exports of the engine that are other modules are never handed out as-is.
TORCH_SUBMODULES = tuple(d for d in SERVED if d != "torch")

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
        except Exception:  # a lazy submodule that is not there (yet)
            continue
    return out


class _ModuleTable:
    """Builds the proxies once per process (the zygote) and hands them out by dotted name."""

    def __init__(self):
        self.proxies: dict[str, ModuleProxy] = {}
        self.real_engine_modules: dict[int, str] = {}

    def build(self, element_check):
        from gradstep import engine
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
        # the version strings a notebook's first cell prints (read through the guard only)
        self.proxies["torch"]._sbx_names["__version__"] = str(engine.__version__)
        self.proxies["engine"] = self.proxies["torch"]
        np_random = ModuleProxy("numpy.random", _wrapped(np.random, NUMPY_RANDOM_NAMES,
                                                         element_check), dir(np.random))
        np_linalg = ModuleProxy("numpy.linalg", _public(np.linalg, NUMPY_LINALG_NAMES),
                                dir(np.linalg))
        np_names = _wrapped(np, NUMPY_NAMES, element_check)
        np_names.update(random=np_random, linalg=np_linalg, __version__=str(np.__version__),
                        empty=_wrap_factory("empty", _zero_filled(np.zeros, "empty"),
                                            element_check),
                        empty_like=_zero_filled(np.zeros_like, "empty_like"))
        self.proxies.update({
            "numpy": ModuleProxy("numpy", np_names, set(NUMPY_HIDDEN) | set(dir(np))),
            "numpy.random": np_random,
            "numpy.linalg": np_linalg,
            "math": ModuleProxy("math", _public(math)),
            "random": ModuleProxy("random", _public(random, (
                "random uniform randint randrange choice choices shuffle sample seed gauss "
                "normalvariate expovariate betavariate triangular").split()), dir(random)),
            "inspect": ModuleProxy("inspect", {"signature": inspect.signature}, dir(inspect)),
            # `nn.Sequential(OrderedDict([...]))`: the plain containers the guards already
            # know (state_dict() returns an OrderedDict); never namedtuple, which builds code
            "collections": ModuleProxy("collections", _public(collections, COLLECTIONS_NAMES),
                                       dir(collections)),
            # `best = copy.deepcopy(model.state_dict())`, `target = copy.deepcopy(net)`
            "copy": ModuleProxy("copy", {"copy": copy_, "deepcopy": deepcopy}, dir(copy)),
        })
        # `import matplotlib.pyplot as plt` to plot the losses: a data-only stand-in
        from gradstep.runner import pyplot
        plt = ModuleProxy("matplotlib.pyplot", pyplot.names())
        self.proxies["matplotlib.pyplot"] = plt
        self.proxies["matplotlib"] = ModuleProxy("matplotlib", {**pyplot.matplotlib_names(),
                                                                "pyplot": plt})
        from gradstep.runner.stdlib_modules import stdlib_proxies     # it imports ModuleProxy
        self.proxies.update(stdlib_proxies())
        return self


# Copies rebuild objects from their parts (`cls.__new__`, then their state), so a copy must
# never rebuild one of the sandbox's own objects (the guards, the proxies, the counted print,
# which a model may hold as `self.log = print`): those are handed to deepcopy's memo as their
# own copies, so they are shared, as Python shares a function; what cannot be copied at all
# (frames, generators) is refused before the copy starts.
_ATOMIC = (str, bytes, int, float, complex, bool, type(None), np.generic, range,
           types.FunctionType, types.BuiltinFunctionType, type)
_UNCOPYABLE = (types.FrameType, types.CodeType, types.GeneratorType, types.TracebackType)


def _internal(obj) -> bool:
    return (type(obj).__module__.startswith(_RUNNER)
            or isinstance(obj, (types.ModuleType, ModuleProxy)))


def _shared_internals(x) -> dict:
    """deepcopy's memo for `x`: each sandbox object it reaches, mapped to itself."""
    memo, stack, seen = {}, [x], set()
    while stack:            # explicit stack: a model's state is deep
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if _internal(obj):
            memo[id(obj)] = obj
            continue
        if isinstance(obj, _UNCOPYABLE):
            raise SecurityError(f"copy: a {type(obj).__name__!r} object cannot be copied")
        if isinstance(obj, _ATOMIC):
            continue        # copied by reference or as a value: nothing inside is rebuilt
        if isinstance(obj, np.ndarray):
            if obj.dtype.hasobject:     # an object array copies its elements too
                stack.extend(obj.ravel().tolist())
            continue
        if isinstance(obj, types.MethodType):
            stack.append(obj.__self__)
        elif isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
        elif isinstance(obj, (list, tuple, set, frozenset, collections.deque)):
            stack.extend(obj)
        for cls in type(obj).__mro__:   # slots (engine tensors, nodes) and the instance dict
            for name in getattr(cls, "__slots__", ()):
                if name != "__dict__" and hasattr(obj, name):
                    stack.append(getattr(obj, name))
        stack.extend(getattr(obj, "__dict__", {}).values())
    return memo


def copy_(x):
    """`copy.copy(x)`; a sandbox object is its own copy (a shallow copy rebuilds only `x`)."""
    return x if _internal(x) else copy.copy(x)


copy_.__name__ = copy_.__qualname__ = "copy"


def deepcopy(x):
    """`copy.deepcopy(x)`, without the memo argument (which would let a program splice
    objects of its choosing into a copy by their id(); no tutorial passes one)."""
    return copy.deepcopy(x, _shared_internals(x))


def _zero_filled(fill, name: str):
    """np.empty as the sandbox gives it: zeros. Uninitialised memory is whatever the worker
    freed before, and the same program must print the same bytes (as torch.empty here)."""
    def empty(*args, **kwargs):
        return fill(*args, **kwargs)
    empty.__name__ = empty.__qualname__ = name
    return empty


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
    factory.__signature__ = _signature_or_none(fn)  # type: ignore[attr-defined]  # inspect reads it
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
