"""`torch.device` and the accelerator queries of a CPU-only PyTorch (`torch.cuda`,
`torch.backends`, `torch.accelerator`).

Notebooks start with `device = torch.device("cuda" if torch.cuda.is_available() else "cpu")`
and move models and tensors with `.to(device)`. Here, as in a CPU build of PyTorch, every query
says no and the CPU is the only place data can go: naming a CUDA device is allowed, moving data
there fails in PyTorch's words (`place`).

Example:
    >>> import gradstep.engine as torch
    >>> torch.device("cuda" if torch.cuda.is_available() else "cpu")
    device(type='cpu')
"""
from __future__ import annotations

from ._names import TorchNamed

_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve",
          "fpga", "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia",
          "privateuseone")
NO_CUDA = "Torch not compiled with CUDA enabled"
NO_ACCELERATOR = "Cannot access accelerator device when none is available."


def _parse(spec: str) -> tuple:
    kind, sep, index = spec.partition(":")
    if kind not in _TYPES:
        raise RuntimeError(f"Expected one of {', '.join(_TYPES)} device type at start of device "
                           f"string: {spec}")
    if not sep:
        return kind, None
    if not index.isdigit() or (len(index) > 1 and index[0] == "0"):
        raise RuntimeError(f"Invalid device string: '{spec}'")
    return kind, int(index)


class device(metaclass=TorchNamed):
    """Where a tensor lives: `device(type='cpu')`; prints as `cpu`, or `cuda:0` with an index."""

    _torch_name = "torch.device"
    __slots__ = ("type", "index")

    def __init__(self, type, index=None) -> None:
        if isinstance(type, device):
            type, index = type.type, type.index
        elif isinstance(type, int) and not isinstance(type, bool):
            raise RuntimeError(NO_ACCELERATOR)      # a bare index means the accelerator
        elif isinstance(type, str):
            type, parsed = _parse(type)
            if parsed is not None:
                if index is not None:
                    raise RuntimeError("type (string) must not include an index because index "
                                       "was passed explicitly: " + f"{type}:{parsed}")
                index = parsed
        else:
            raise TypeError("device() received an invalid combination of arguments")
        if index is not None and index < 0:
            raise RuntimeError("Device index must not be negative")
        self.type, self.index = type, index

    def __repr__(self) -> str:
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other) -> bool:
        if not isinstance(other, device):
            return False
        return self.type == other.type and self.index == other.index

    def __hash__(self) -> int:
        return hash((self.type, self.index))


CPU = device("cpu")


def place(where) -> None:
    """Check that data may go to `where` (a device, a device string, an index or None): only
    the CPU exists, so anything else raises what a CPU build of PyTorch raises."""
    if where is None:
        return
    target = where if isinstance(where, device) else device(where)
    if target.type == "cpu":
        return
    if target.type == "cuda":
        raise AssertionError(NO_CUDA)
    raise RuntimeError(f"PyTorch is not linked with support for {target.type} devices")


# torch.set_default_device: where factories put new tensors when no device= is given. Naming
# CUDA is allowed, as in a CPU build; making a tensor there then fails (`place_new`).
_default = None


def set_default_device(where) -> None:
    """Make `where` (a device, a device string or None for the CPU) the place of new tensors."""
    global _default
    _default = None if where is None else device(where)


def get_default_device():
    """The device new tensors go to: `device(type='cpu')`, unless another one was set."""
    place_new(None)
    return CPU if _default is None else _default


def place_new(where) -> None:
    """`place` for a factory: with no device= the default device decides."""
    place(_default if where is None else where)


def no_cuda(*args, **kwargs):
    """`Tensor.cuda()` and `Module.cuda()` in a CPU build."""
    raise AssertionError(NO_CUDA)


def is_device_spec(value) -> bool:
    """Whether a positional argument of `.to(...)` names a device (a device or a string)."""
    return isinstance(value, (device, str))


class _Namespace(metaclass=TorchNamed):
    """A plain object standing for one of torch's query modules."""

    def __repr__(self) -> str:
        return f"<module '{self._torch_name}'>"

    def __getattr__(self, name: str):
        raise AttributeError(f"module '{self._torch_name}' has no attribute '{name}'")


class _Cuda(_Namespace):
    _torch_name = "torch.cuda"

    def __getattr__(self, name: str):
        # torch.cuda.FloatTensor & co. exist in a CPU build and refuse to build tensors
        # (legacy_types.py, imported late: it needs Tensor, which needs this module)
        from .legacy_types import CUDA
        if name in CUDA:
            return CUDA[name]
        return super().__getattr__(name)

    @staticmethod
    def is_available() -> bool:
        return False

    @staticmethod
    def device_count() -> int:
        return 0

    @staticmethod
    def manual_seed(seed) -> None:
        """Seeding CUDA without CUDA does nothing (PyTorch seeds lazily, when it starts)."""

    manual_seed_all = manual_seed

    @staticmethod
    def current_device() -> int:
        raise AssertionError(NO_CUDA)

    @staticmethod
    def get_device_name(device=None) -> str:
        raise AssertionError(NO_CUDA)

    @staticmethod
    def synchronize(device=None) -> None:
        raise AssertionError(NO_CUDA)

    @staticmethod
    def empty_cache() -> None:
        """Nothing is cached."""


class _Mps(_Namespace):
    _torch_name = "torch.backends.mps"

    @staticmethod
    def is_available() -> bool:
        return False

    @staticmethod
    def is_built() -> bool:
        return False


class _Cudnn(_Namespace):
    """`torch.backends.cudnn`: the flags seeding helpers set (they change nothing on a CPU)."""

    _torch_name = "torch.backends.cudnn"

    def __init__(self) -> None:
        self.deterministic = False
        self.benchmark = False
        self.enabled = True

    @staticmethod
    def is_available() -> bool:
        return False


class _Backends(_Namespace):
    _torch_name = "torch.backends"

    def __init__(self) -> None:
        self.mps = _Mps()
        self.cudnn = _Cudnn()


class _Accelerator(_Namespace):
    _torch_name = "torch.accelerator"

    @staticmethod
    def is_available() -> bool:
        return False

    @staticmethod
    def current_accelerator(check_available: bool = False):
        return None

    @staticmethod
    def device_count() -> int:
        return 0


cuda = _Cuda()
backends = _Backends()
accelerator = _Accelerator()
