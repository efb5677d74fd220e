"""`torch.linalg`: the linear-algebra namespace (so far the inverse, `torch.linalg.inv` and
`torch.linalg.inv_ex`, `torch.linalg.det`, `torch.linalg.norm`, `torch.linalg.vector_norm`,
`torch.linalg.matrix_norm` and `torch.linalg.cross`).

The ops themselves live in `engine/ops/linalg.py`; this module only names them as PyTorch does.

Example:
    >>> import gradstep.engine as torch
    >>> torch.linalg.inv(torch.tensor([[2.0, 0.0], [0.0, 4.0]]))
    tensor([[0.5000, 0.0000],
            [0.0000, 0.2500]])
"""
from __future__ import annotations

from .ops.determinant import det
from .ops.linalg import _LinAlgError as LinAlgError
from .ops.linalg import inv_ex
from .ops.linalg import inverse as inv
from .ops.matrix_norms import matrix_norm, norm
from .ops.reduction import vector_norm
from .ops.vectors import linalg_cross as cross

__all__ = ["inv", "inv_ex", "det", "vector_norm", "matrix_norm", "norm", "cross", "LinAlgError"]
