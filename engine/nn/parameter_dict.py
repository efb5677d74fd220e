"""`nn.ParameterDict`: parameters kept under string keys and registered with the module.

PyTorch counterpart: `torch.nn.ParameterDict`. Each key is an attribute of the dict module, so
a parent's `named_parameters()` and `state_dict()` list `params.<key>`; tensors put in become
Parameters. A plain `dict` given to the constructor or `update` is taken in sorted key order
(PyTorch does this for mappings other than OrderedDict and ParameterDict).
"""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Mapping

from ..tensor import Tensor
from .container import update_pairs
from .module import Module, _type_name
from .parameter import Parameter


class ParameterDict(Module):
    """An ordered dict of parameters that a parent module sees.

    Example:
        >>> import gradstep.engine as torch
        >>> pd = torch.nn.ParameterDict({"w": torch.ones(2), "b": torch.zeros(1)})
        >>> list(pd.keys()), pd["w"].requires_grad
        (['b', 'w'], True)
    """

    def __init__(self, parameters=None) -> None:
        super().__init__()
        self._keys: dict = {}
        if parameters is not None:
            self.update(parameters)

    @staticmethod
    def _attr(key) -> str:
        if not isinstance(key, str):
            raise TypeError("Index given to ParameterDict cannot be used as a key as it is not "
                            f"a string (type is '{type(key).__name__}'). Open an issue on "
                            "github if you need non-string keys.")
        return key

    def __getitem__(self, key):
        attr = self._attr(key)
        if attr not in self._keys:      # never another attribute (`pd["__reduce_ex__"]`)
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{attr}'")
        return getattr(self, attr)

    def __setitem__(self, key, value) -> None:
        self._keys[key] = None      # before the key check, as PyTorch (a bad key stays listed)
        attr = self._attr(key)
        if isinstance(value, Tensor) and not isinstance(value, Parameter):
            value = Parameter(value)
        setattr(self, attr, value)

    def __delitem__(self, key) -> None:
        del self._keys[key]
        delattr(self, self._attr(key))

    def __len__(self) -> int:
        return len(self._keys)

    def __iter__(self):
        return iter(self._keys)

    def __reversed__(self):
        return reversed(self._keys)

    def __contains__(self, key) -> bool:
        return key in self._keys

    def keys(self):
        return self._keys.keys()

    def items(self):
        return ((k, self[k]) for k in self._keys)

    def values(self):
        return (self[k] for k in self._keys)

    def get(self, key, default=None):
        return self[key] if key in self else default

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
        return self[key]

    def pop(self, key):
        value = self[key]
        del self[key]
        return value

    def popitem(self) -> tuple:
        key = next(reversed(self._keys))    # the last key, as dict.popitem (KeyError if none)
        value = self[key]
        del self[key]
        return key, value

    def clear(self) -> None:
        for key in list(self._keys):
            del self[key]

    def copy(self) -> "ParameterDict":
        return ParameterDict(OrderedDict((k, self[k]) for k in self._keys))

    def fromkeys(self, keys, default=None) -> "ParameterDict":
        return ParameterDict((k, default) for k in keys)

    def update(self, parameters) -> None:
        """Add (key, value) pairs from a mapping or an iterable of pairs."""
        if not isinstance(parameters, Iterable):
            raise TypeError("ParametersDict.update should be called with an iterable of "
                            f"key/value pairs, but got {type(parameters).__name__}")
        if isinstance(parameters, (OrderedDict, ParameterDict)):
            pairs = list(parameters.items())
        elif isinstance(parameters, Mapping):
            pairs = sorted(parameters.items())
        else:
            pairs = []
            for key, value in update_pairs("ParameterDict", parameters):
                self[key] = value
        for key, value in pairs:
            self[key] = value

    def __or__(self, other) -> "ParameterDict":
        merged = self.copy()
        merged.update(other)
        return merged

    def __ror__(self, other) -> "ParameterDict":
        merged = other.copy()
        merged.update(self)
        return merged

    def __ior__(self, other) -> "ParameterDict":
        self.update(other)
        return self

    def extra_repr(self) -> str:
        lines = []
        for key, p in self.items():
            if isinstance(p, Tensor):
                kind = "Parameter" if isinstance(p, Parameter) else "Tensor"
                size = "x".join(str(n) for n in p.shape)
                lines.append(f"  ({key}): {kind} containing: [{_type_name(p)} of size {size}]")
            else:
                lines.append(f"  ({key}): Object of type: {type(p).__name__}")
        return "\n".join(lines)

    def __call__(self, input):
        raise RuntimeError("ParameterDict should not be called.")


__all__ = ["ParameterDict"]
