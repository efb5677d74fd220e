"""Tensor: an ndarray plus autograd metadata (PyTorch's `torch.Tensor`).

A tensor holds its values in `_data` (numpy), whether it `requires_grad`, the `grad_fn` that
made it (None for leaves), its accumulated `.grad`, and a version counter shared with its views
that in-place ops bump. The math methods are one-liners in `tensor_ops.py` (the base class).
"""
from __future__ import annotations

import itertools

import numpy as np

from . import _events, dtypes, messages
from ._addresses import address_of
from ._names import TorchNamed
from .grad_mode import is_inference_uid, state as _grad_state
from .graph import RemovableHandle
from .device import CPU
from .layouts import layout, strided
from .size import Size
from .tensor_ops import TensorOps, bind_ops

tensor_uids = itertools.count()
# uids of the tensors computed from vmap's samples while a vmapped function runs: PyTorch's
# batched tensors, whose values a Python number cannot hold (func/batching.py fills it)
batched_uids: set = set()
batch_sizes: list = []      # the running vmaps' batch sizes, outermost first
# how many torch.func transforms (grad, jacrev, jvp, ...) are running, one inside the other:
# func/_levels.py counts, custom Functions ask (they need setup_context there)
transform_depth: list = [0]
_ndarray = np.ndarray

# NOTE [version counters made on first need]
# Every tensor has a version counter, shared with its views (and detach()'s result), that
# in-place writes bump; a saved tensor whose counter moved refuses to unpack. A fresh list
# per tensor would be one more object alive as long as the graph, counted and visited by
# Python's cyclic collector on every op of a long chain, while most tensors are never written
# nor viewed. So a tensor starts with the one shared tuple VERSION_0: reading `t._vc[0]` works
# as on a list and gives 0. The first writer or sharer asks `counter(t)`, which gives the
# tensor its own list then. Code that bumps a counter or hands it to another tensor must go
# through `counter()`: bumping the tuple fails loudly, but sharing it would silently leave
# the two tensors with counters of their own.
VERSION_0 = (0,)


def counter(t: "Tensor") -> list:
    """`t`'s version counter as a list, to bump or to share: made on first need."""
    vc = t._vc
    if type(vc) is not list:    # VERSION_0, or an equal tuple (a pickled tensor's, loaded)
        vc = t._vc = [vc[0]]
    return vc


class Tensor(TensorOps, metaclass=TorchNamed):
    """A multi-dimensional array that can record the ops applied to it.

    Example:
        >>> import gradstep.engine as torch
        >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
        >>> (x * x).sum().backward()
        >>> x.grad.tolist()
        [2.0, 4.0]
    """

    _torch_name = "torch.Tensor"   # type(x) prints <class 'torch.Tensor'> (see _names.py)
    # _x holds rarely used state (hooks, retains_grad, view base) so tensors stay cheap
    _uid: int      # from tensor_uids: a stable id (never id()) the recorder keys tensors by
    _vc: list | tuple   # the version counter [n], shared with views; VERSION_0 at first (top)
    __slots__ = ("_data", "_rg", "grad_fn", "_grad", "_vc", "_uid", "_out_nr", "_acc", "_x",
                 "__weakref__")
    # numpy scalars defer to the tensor's reflected operators (np.sqrt(2) * x keeps the graph)
    __array_priority__ = 1000

    def __init__(self, *args, **kwargs) -> None:
        # the legacy constructor: torch.Tensor(2, 3) is uninitialised, torch.Tensor([1, 2]) data
        if kwargs:
            _legacy_keywords(args, kwargs)
        if len(args) == 1 and not isinstance(args[0], (int, np.integer)):
            data = np.array(_plain(args[0]), dtype=np.float32)
        else:   # torch.Tensor() is empty, torch.Tensor(2, 3) uninitialised (zeros here)
            data = np.zeros(tuple(int(a) for a in args) if args else (0,), dtype=np.float32)
        _init(self, data)

    # ---- autograd metadata -----------------------------------------------------------
    @property
    def requires_grad(self) -> bool:
        return self._rg

    @requires_grad.setter
    def requires_grad(self, flag: bool) -> None:
        if self.grad_fn is not None:    # PyTorch's attribute refuses even True on a non-leaf
            raise RuntimeError(messages.NONLEAF_REQUIRES_GRAD if not flag else
                               messages.NONLEAF_REQUIRES_GRAD.split(" If ")[0])
        if flag and self._data.dtype.kind not in "fc":
            raise RuntimeError(messages.INT_REQUIRES_GRAD_SET)
        if flag and not _grad_state.inference and is_inference_uid(self._uid):
            raise RuntimeError(messages.INFERENCE_REQUIRES_GRAD)
        self._rg = bool(flag)

    def requires_grad_(self, requires_grad: bool = True) -> "Tensor":
        if requires_grad and self._data.dtype.kind not in "fc":
            raise RuntimeError(messages.INT_REQUIRES_GRAD_METHOD)
        if requires_grad and self.grad_fn is not None:
            return self                 # the method (unlike the attribute) accepts it
        self.requires_grad = requires_grad
        return self

    @property
    def is_leaf(self) -> bool:
        return self.grad_fn is None

    @property
    def grad(self) -> "Tensor | None":
        if self.grad_fn is not None and not self.retains_grad:
            messages.warn(messages.NONLEAF_GRAD_WARNING)
        return self._grad

    @grad.setter
    def grad(self, value: "Tensor | None") -> None:
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError("assigned grad expected to be a Tensor or None but got grad "
                                f"of type {messages.parser_type_name(value)}")
            messages.check_grad_assignment(self, value)
        self._grad = value
        if _events.listener is not None:
            _events.listener.on_grad_reset(self, "none" if value is None else "set")

    @property
    def retains_grad(self) -> bool:
        return self._x is not None and self._x.get("retains_grad", False)

    def retain_grad(self) -> None:
        """Keep `.grad` for this non-leaf after backward (leaves keep it anyway)."""
        if not self._rg:
            raise RuntimeError(messages.RETAIN_GRAD_LEAF)
        if self.grad_fn is not None:
            self._extra()["retains_grad"] = True
            self._watch()

    def register_hook(self, hook) -> RemovableHandle:
        """`hook(grad)` runs when this tensor's gradient is computed; a return replaces it."""
        if not self._rg:
            raise RuntimeError(messages.HOOK_NO_GRAD)
        hooks = self._extra().setdefault("hooks", [])
        hooks.append(hook)
        if self.grad_fn is not None:
            self._watch()
        return RemovableHandle(hooks, hook)

    def register_post_accumulate_grad_hook(self, hook) -> RemovableHandle:
        """`hook(tensor)` runs after a backward pass has accumulated into this leaf's `.grad`
        (an optimizer step per parameter, say); it must return None."""
        if not self._rg:
            raise RuntimeError(messages.HOOK_NO_GRAD)
        if self.grad_fn is not None:
            raise RuntimeError(messages.POST_ACCUMULATE_HOOK_NONLEAF)
        hooks = self._extra().setdefault("post_accumulate_hooks", [])
        hooks.append(hook)
        return RemovableHandle(hooks, hook)

    def _extra(self) -> dict:
        if self._x is None:
            self._x = {}
        return self._x

    def _watch(self) -> None:
        """Ask the grad_fn to run this tensor's hooks / retain_grad during backward."""
        watched = self.grad_fn._extra("tensors", [])
        if not any(t is self for _, t in watched):
            watched.append((self._out_nr, self))

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Accumulate d(self)/d(leaf) into every leaf's `.grad` (v·J when `gradient` is v).

        Example:
            >>> import gradstep.engine as torch
            >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
            >>> (x * 3).backward(torch.tensor([1.0, 0.5]))
            >>> x.grad.tolist()
            [3.0, 1.5]
        """
        _walk.backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def detach(self) -> "Tensor":
        """A tensor sharing storage and version counter, cut from the graph."""
        t = new_tensor(self._data)
        t._vc = counter(self)
        if _events.listener is not None:
            _events.listener.on_tensor(t, "detach")
        return t

    def detach_(self) -> "Tensor":
        if self._x is not None and self._x.get("view_of") is not None:
            raise RuntimeError(messages.DETACH_VIEW_INPLACE)
        self.grad_fn = None
        self._rg = False
        return self

    @property
    def data(self) -> "Tensor":
        # shares storage but NOT the version counter: changes through .data go unnoticed
        t = new_tensor(self._data)
        if self._x is not None and "grad_of" in self._x:
            t._x = {"grad_of": self._x["grad_of"]}     # so x.grad.data.zero_() is reported
        if _events.listener is not None:
            _events.listener.on_tensor(t, "data")
        return t

    @data.setter
    def data(self, value: "Tensor") -> None:
        if not isinstance(value, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(value).__name__}")
        if self._rg and value._data.dtype.kind not in "fc":
            raise RuntimeError("data set to a tensor that requires gradients must be floating "
                               "point or complex dtype")
        self._data = value._data

    @property
    def _base(self) -> "Tensor | None":
        """The tensor this one is a view of (the root, as PyTorch keeps it), or None."""
        return self._x.get("view_of") if self._x is not None else None

    @property
    def _version(self) -> int:
        return self._vc[0]

    # ---- shape and conversions -------------------------------------------------------
    @property
    def shape(self) -> "Size":
        return Size(self._data.shape)

    def size(self, dim: int | None = None):
        return Size(self._data.shape) if dim is None else self._data.shape[dim]

    @property
    def dtype(self) -> dtypes.dtype:
        return dtypes.of_array(self._data)

    @property
    def ndim(self) -> int:
        return self._data.ndim

    def dim(self) -> int:
        return self._data.ndim

    def ndimension(self) -> int:
        return self._data.ndim

    def numel(self) -> int:
        return self._data.size

    def nelement(self) -> int:
        return self._data.size

    def data_ptr(self) -> int:
        """A number standing for the address of the first element: views into the same
        memory differ by their byte offset, as in PyTorch; never a real address
        (engine/_addresses.py says why)."""
        return address_of(self._data)

    def element_size(self) -> int:
        return self._data.itemsize

    @property
    def device(self):
        return CPU

    is_cuda = False

    def is_floating_point(self) -> bool:
        return self._data.dtype.kind == "f"

    @property
    def is_sparse(self) -> bool:
        return False            # engine/sparse_coo.py's tensors say True

    @property
    def layout(self) -> layout:
        return strided

    def is_contiguous(self) -> bool:
        return self._data.flags.c_contiguous

    def item(self):
        if batched_uids and self._uid in batched_uids:
            raise RuntimeError(messages.VMAP_ITEM)
        if self._data.size != 1:
            raise RuntimeError(f"a Tensor with {self._data.size} elements cannot be converted "
                               "to Scalar")
        return self._data.item()    # (a one-element array of any shape gives its value)

    def tolist(self):
        if batched_uids and self._uid in batched_uids:
            raise RuntimeError("Cannot access data pointer of Tensor that doesn't have storage")
        return self._data.tolist()

    def numpy(self) -> np.ndarray:
        if batched_uids and self._uid in batched_uids:
            raise RuntimeError("Cannot access data pointer of Tensor that doesn't have storage")
        # PyTorch refuses only while grad mode is on (inside Function.forward it is off)
        if self._rg and _grad_state.enabled:
            raise RuntimeError(messages.NUMPY_REQUIRES_GRAD)
        return self._data

    def __float__(self) -> float:
        if batched_uids and self._uid in batched_uids:
            raise RuntimeError(messages.VMAP_ITEM)
        if self._data.size != 1:
            raise ValueError(messages.ONE_ELEMENT)
        if self._rg:
            messages.warn_once(messages.SCALAR_CONVERSION_WARNING)
        return float(self.item())

    def __complex__(self) -> complex:
        if self._data.size != 1:
            raise ValueError(messages.ONE_ELEMENT)
        if self._rg:
            messages.warn_once(messages.SCALAR_CONVERSION_WARNING)
        return complex(self.item())

    def __int__(self) -> int:
        if self._data.size != 1:
            raise ValueError(messages.ONE_ELEMENT)
        return int(self.item())

    def __index__(self) -> int:
        if self._data.dtype.kind not in "iub" or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an "
                            "index")
        return int(self.item())

    def __bool__(self) -> bool:
        if batched_uids and self._uid in batched_uids:
            raise RuntimeError(messages.VMAP_CONTROL_FLOW)
        if self._data.size != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self._data.reshape(()))

    def __len__(self) -> int:
        if not self._data.ndim:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self):
        if not self._data.ndim:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))     # as PyTorch: the rows carry UnbindBackward0

    __hash__ = object.__hash__

    def __deepcopy__(self, memo) -> "Tensor":
        if self.grad_fn is not None:
            raise RuntimeError(messages.DEEPCOPY_NONLEAF)
        t = _new(type(self))            # keeps subclasses such as nn.Parameter
        _init(t, self._data.copy())
        t._rg = self._rg
        if hasattr(self, "__dict__"):
            import copy
            t.__dict__.update(copy.deepcopy(self.__dict__, memo))
        if self._grad is not None:
            t._grad = new_tensor(self._grad._data.copy())
        memo[id(self)] = t
        return t

    def __repr__(self, *, tensor_contents=None) -> str:
        from .printing import tensor_repr
        return tensor_repr(self)

    def __str__(self) -> str:
        from .printing import tensor_str
        return tensor_str(self)

    def __format__(self, spec: str) -> str:
        # PyTorch formats a 0-d tensor as its Python number, even with an empty spec
        if self._data.ndim == 0 and type(self) is Tensor:
            return format(self.item(), spec)
        if spec:    # object.__format__ refuses any spec, naming the class as PyTorch's is named
            raise TypeError("unsupported format string passed to Tensor.__format__")
        return str(self)

    def __array__(self, dtype=None):
        # numpy reads a tensor as PyTorch's numpy() gives it: never one that requires grad
        # (`np.array(losses)` over a list of losses is the classic way to meet this error).
        # No `copy` parameter, as in PyTorch's: numpy 2 warns where it wants one, as there.
        if self._rg:
            raise RuntimeError(messages.NUMPY_REQUIRES_GRAD)
        return self._data if dtype is None else self._data.astype(dtype)

    def __array_wrap__(self, array):
        # a numpy function of a tensor gives a tensor (np.sin(t)), as PyTorch's does: bools as
        # uint8, outside the graph. The one-argument signature is PyTorch's, which is why numpy
        # 2 warns (DeprecationWarning) at the program's line when it calls it, as it does there.
        if array.dtype == np.bool_:
            array = array.astype(np.uint8)
        return new_tensor(np.asarray(array))


def _plain(data):
    if isinstance(data, Tensor):
        return data._data
    if isinstance(data, (list, tuple)):
        return [_plain(d) for d in data]
    return data


def _legacy_keywords(args: tuple, kwargs: dict) -> None:
    """The legacy constructors take device (the CPU) as their only keyword, as PyTorch's."""
    if set(kwargs) != {"device"}:
        raise TypeError(messages.legacy_new_keywords(args, kwargs))
    from .device import place
    place(kwargs["device"])


def _init(t: Tensor, data: np.ndarray) -> None:
    t._data = data
    t._rg = False
    t.grad_fn = None
    t._grad = None
    t._vc = VERSION_0
    t._uid = next(tensor_uids)
    t._out_nr = 0
    t._acc = None
    t._x = None


_new = object.__new__


def new_tensor(data) -> Tensor:
    """Wrap an ndarray (or numpy scalar) as a leaf Tensor without copying; internal and fast."""
    t = _new(Tensor)
    t._data = data if type(data) is _ndarray else np.asarray(data)
    t._rg = False
    t.grad_fn = None
    t._grad = None
    t._vc = VERSION_0
    t._uid = next(tensor_uids)
    t._out_nr = 0
    t._acc = None
    t._x = None
    return t


bind_ops()   # the op modules import Tensor, so they can only load once it exists
from .autograd import walk as _walk    # noqa: E402  (the same: it imports Tensor)
