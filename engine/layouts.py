"""Tensor layouts: `torch.strided` (every dense tensor) and `torch.sparse_coo`."""
from __future__ import annotations

from ._names import TorchNamed


class layout(metaclass=TorchNamed):
    """A tensor's memory layout, printed as PyTorch prints it (`torch.sparse_coo`)."""

    __slots__ = ("_name",)
    _torch_name = "torch.layout"

    def __init__(self, name: str) -> None:
        self._name = name

    def __repr__(self) -> str:
        return f"torch.{self._name}"


strided = layout("strided")
sparse_coo = layout("sparse_coo")

__all__ = ["layout", "sparse_coo", "strided"]
