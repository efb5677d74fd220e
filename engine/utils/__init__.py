"""`torch.utils`: `torch.utils.data` (datasets, samplers and the DataLoader) and
`torch.utils.checkpoint` (activation checkpointing)."""
from __future__ import annotations

from . import checkpoint, data

__all__ = ["checkpoint", "data"]
