"""`torch.utils`: so far only `torch.utils.data` (datasets, samplers and the DataLoader)."""
from __future__ import annotations

from . import data

__all__ = ["data"]
