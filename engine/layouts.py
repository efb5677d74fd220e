"""Tensor layouts: `torch.strided` (every dense tensor) and `torch.sparse_coo`."""
from __future__ import annotations


class layout:
    """A tensor's memory layout, printed as PyTorch prints it (`torch.sparse_coo`)."""

    __slots__ = ("_name",)
    __module__ = "torch"

    def __init__(self, name: str) -> None:
        self._name = name

    def __repr__(self) -> str:
        return f"torch.{self._name}"


strided = layout("strided")
sparse_coo = layout("sparse_coo")

__all__ = ["layout", "sparse_coo", "strided"]
