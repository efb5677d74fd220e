"""`F.embedding` and `F.one_hot`: integer indices in, rows of a table or one-hot rows out.

PyTorch counterparts: `torch.nn.functional.embedding` (one `EmbeddingBackward0` node over the
weight) and `torch.nn.functional.one_hot` (integer output, no graph). The argument checks and
their messages are PyTorch's; the op itself is `engine.ops.sparse.Embedding`. Re-exported by
`engine.nn.functional`.
"""
from __future__ import annotations

import numpy as np

from ..grad_mode import no_grad
from ..ops import sparse as _sparse
from ..tensor import Tensor, counter, new_tensor


def _index_type_error(indices: Tensor) -> RuntimeError:
    dt = indices.dtype
    got = f"torch.{dt.legacy}" if dt.is_floating_point else f"CPU{dt.legacy[:-6]}Type"
    return RuntimeError("Expected tensor for argument #1 'indices' to have one of the following "
                        f"scalar types: Long, Int; but got {got} instead (while checking "
                        "arguments for embedding)")


def _renorm_(weight: Tensor, indices: np.ndarray, max_norm: float, norm_type: float) -> None:
    """Scale down, in place and untracked, each looked-up row whose norm exceeds max_norm."""
    data = weight._data
    for k in np.unique(indices):
        norm = np.linalg.norm(data[k].astype(np.float64), ord=norm_type)
        if norm > max_norm:
            data[k] *= data.dtype.type(max_norm / (norm + 1e-7))
    counter(weight)[0] += 1


def padding_index(padding_idx, num_embeddings: int, word: str = "Padding_idx"):
    """`padding_idx` checked against the table's rows and made non-negative, as embedding and
    the modules do; PyTorch's message says `word` ("Padding_idx", or "padding_idx" in
    EmbeddingBag)."""
    if padding_idx is not None:
        if padding_idx > 0:
            assert padding_idx < num_embeddings, f"{word} must be within num_embeddings"
        elif padding_idx < 0:
            assert padding_idx >= -num_embeddings, f"{word} must be within num_embeddings"
            padding_idx = num_embeddings + padding_idx
    return padding_idx


def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None,
              max_norm: float | None = None, norm_type: float = 2.0,
              scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    """weight[input]: a row of `weight` for every index in `input` (`EmbeddingBackward0`).

    The output has shape input.shape + (embedding_dim,). Rows at `padding_idx` get no
    gradient; `max_norm` renormalises the looked-up rows of `weight` in place first.

    Example:
        >>> import gradstep.engine as torch
        >>> w = torch.tensor([[0.0, 1.0], [2.0, 3.0]], requires_grad=True)
        >>> y = embedding(torch.tensor([1, 1, 0]), w)
        >>> y.tolist(), type(y.grad_fn).__name__
        ([[2.0, 3.0], [2.0, 3.0], [0.0, 1.0]], 'EmbeddingBackward0')
    """
    n = weight.shape[0] if weight.ndim else 0
    padding_idx = padding_index(padding_idx, n)
    saved_padding = _sparse.NO_PADDING if padding_idx is None else padding_idx
    if weight.ndim != 2:
        raise RuntimeError("'weight' must be 2-D")
    if input._data.dtype not in (np.int64, np.int32):
        raise _index_type_error(input)
    idx = input._data
    if idx.size and (idx.min() < 0 or idx.max() >= n):
        raise IndexError("index out of range in self")
    if max_norm is not None:
        with no_grad():
            _renorm_(weight, idx, max_norm, norm_type)
    return _sparse.Embedding.apply(weight, input, saved_padding, bool(scale_grad_by_freq),
                                   bool(sparse))


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    """An int64 tensor of shape tensor.shape + (num_classes,) with a 1 at each class index.

    num_classes=-1 takes the largest value plus one.

    Example:
        >>> import gradstep.engine as torch
        >>> one_hot(torch.tensor([0, 2])).tolist()
        [[1, 0, 0], [0, 0, 1]]
    """
    data = tensor._data
    if data.dtype != np.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if num_classes == -1:
        if data.size == 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(data.max()) + 1
    if data.size:
        if data.min() < 0:
            raise RuntimeError("Class values must be non-negative.")
        if data.max() >= num_classes:
            raise RuntimeError("Class values must be smaller than num_classes.")
    out = (data[..., None] == np.arange(num_classes)).astype(np.int64)
    return new_tensor(out)


__all__ = ["embedding", "one_hot"]
