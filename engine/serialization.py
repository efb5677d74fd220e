"""`torch.save` / `torch.load`, kept in memory for the length of one program run.

A checkpoint round trip (`torch.save(model.state_dict(), PATH)`, later
`model.load_state_dict(torch.load(PATH))`) is tutorial staple. Programs here may not write
files, so saved objects live in a per-process table keyed by the normalised path: `load`
returns an independent copy, as unpickling does. As in PyTorch 2.6+, `load` defaults to
`weights_only=True` and refuses anything but tensors, numbers, strings and containers.
"""
from __future__ import annotations

import copy
from collections import OrderedDict

from ._names import PACKAGE
from .tensor import Tensor, new_tensor

_saved: dict = {}       # normalised path -> the snapshot taken at save time

_PLAIN = (int, float, bool, complex, str, bytes, type(None))
# PyTorch's class paths for the engine's nn classes whose module file is named differently
_TORCH_MODULE = {"Dropout": "dropout", "BatchNorm1d": "batchnorm", "Flatten": "flatten",
                 "Unflatten": "flatten"}
_WEIGHTS_ONLY = (
    "Weights only load failed. This file can still be loaded, to do so you have two options, "
    "\x1b[1mdo those steps only if you trust the source of the checkpoint\x1b[0m. \n\t(1) In "
    "PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` "
    "from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will "
    "likely succeed, but it can result in arbitrary code execution. Do it only if you got the "
    "file from a trusted source.\n\t(2) Alternatively, to load with `weights_only=True` please "
    "check the recommended steps in the following error message.\n\tWeightsUnpickler error: "
    "Unsupported global: GLOBAL {0} was not an allowed global by default. Please use "
    "`torch.serialization.add_safe_globals([{0}])` or the "
    "`torch.serialization.safe_globals([{0}])` context manager to allowlist this global if you "
    "trust this class/function.\n\nCheck the documentation of torch.load to learn more about "
    "types accepted by default with weights_only "
    "https://pytorch.org/docs/stable/generated/torch.load.html.")


# No `os` (nor `pickle`, nor posixpath, which holds os) among this module's names: NOTE in
# messages.py, no engine module holds os. File names are normalised as plain strings, and the
# unpickling error is imported where it is raised: nothing is ever pickled, `load` copies.
def _key(f) -> str:
    """The file name `f` normalised ("./a//b.pt" and "a/b.pt" are one file)."""
    if not isinstance(f, str) and not hasattr(type(f), "__fspath__"):
        raise TypeError("gradstep's torch.save/torch.load take a file name (a str or a path)")
    name = f if isinstance(f, str) else str(type(f).__fspath__(f))
    parts: list[str] = []
    for part in name.split("/"):
        if part in ("", "."):
            continue
        if part == ".." and parts and parts[-1] != "..":
            parts.pop()
        else:
            parts.append(part)
    return ("/" if name.startswith("/") else "") + "/".join(parts)


def _snapshot(obj):
    """An independent copy: tensors keep their values, dtype, requires_grad and class
    (a saved non-leaf comes back as a leaf), containers are rebuilt, the rest deep-copied."""
    if isinstance(obj, Tensor):
        if obj.grad_fn is None:
            return copy.deepcopy(obj)
        t = new_tensor(obj._data.copy())
        t.requires_grad = obj.requires_grad
        return t
    if isinstance(obj, _PLAIN):
        return obj
    if isinstance(obj, (dict, OrderedDict)):
        out = type(obj)((k, _snapshot(v)) for k, v in obj.items())
        if isinstance(obj, OrderedDict) and hasattr(obj, "_metadata"):
            out._metadata = copy.deepcopy(obj._metadata)    # a state_dict's module versions
        return out
    if isinstance(obj, (list, tuple)) and type(obj) in (list, tuple):
        return type(obj)(_snapshot(v) for v in obj)
    return copy.deepcopy(obj)


def _unsafe_global(obj):
    """The class path PyTorch's weights-only unpickler would stop at first, or None."""
    if isinstance(obj, (Tensor,) + _PLAIN):
        return None
    if isinstance(obj, dict):
        return next((g for g in map(_unsafe_global, obj.values()) if g), None)
    if isinstance(obj, (list, tuple, set)):
        return next((g for g in map(_unsafe_global, obj) if g), None)
    cls = type(obj)
    module = cls.__module__
    if module.startswith(PACKAGE + ".nn."):
        module = "torch.nn.modules." + _TORCH_MODULE.get(cls.__name__,
                                                         module.rsplit(".", 1)[1])
    elif module.startswith(PACKAGE):
        module = "torch"
    return f"{module}.{cls.__qualname__}"


def save(obj, f, pickle_module=None, pickle_protocol: int = 2, **kwargs) -> None:
    """Remember a copy of `obj` under the file name `f` (in memory, for this run).

    Example:
        >>> import gradstep.engine as torch
        >>> torch.save({"w": torch.ones(2)}, "ckpt.pt")
        >>> torch.load("ckpt.pt")
        {'w': tensor([1., 1.])}
    """
    _saved[_key(f)] = _snapshot(obj)


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None,
         **kwargs):
    """A fresh copy of what `save` stored under `f`; FileNotFoundError if nothing was."""
    key = _key(f)
    if key not in _saved:
        raise FileNotFoundError(2, "No such file or directory",
                                f if isinstance(f, str) else str(type(f).__fspath__(f)))
    obj = _saved[key]
    if weights_only is None or weights_only:
        bad = _unsafe_global(obj)
        if bad:
            from pickle import UnpicklingError
            raise UnpicklingError(_WEIGHTS_ONLY.format(bad))
    return _snapshot(obj)


__all__ = ["save", "load"]
