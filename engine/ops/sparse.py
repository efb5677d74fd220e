"""Embedding lookup: rows of a weight matrix picked by integer indices, and its gradient.

PyTorch counterparts: `torch.embedding` (what `F.embedding` and `nn.Embedding` record,
`EmbeddingBackward0`) and `torch.embedding_dense_backward` (what its backward records under
create_graph, `EmbeddingDenseBackwardBackward0`). Argument checks live in
`engine/nn/functional_sparse.py`. `padding_idx` is what PyTorch's nodes save: an index, or -1
for none (shown as 2**64 - 1, as PyTorch shows it).
"""
from __future__ import annotations

import numpy as np

from ..coo_tensor import sparse_tensor
from ..tensor import Tensor, new_tensor
from ._op import Op

NO_PADDING = 2 ** 64 - 1     # PyTorch's saved padding_idx of -1 (read back as unsigned)


def _signed(padding_idx: int) -> int:
    return -1 if padding_idx == NO_PADDING else padding_idx


def _index_array(indices: Tensor) -> np.ndarray:
    return indices._data.astype(np.int64, copy=False)


class Embedding(Op):
    """out[..., :] = weight[indices[...], :]"""
    grad_fn_name, name = "EmbeddingBackward0", "embedding"
    saves = ("indices", "padding_idx", "scale_grad_by_freq", "sparse", "weight_sym_argsize_0")
    forward_extras = ("weight_sym_argsize_0",)
    rule = "grad rows summed into the rows they were read from (none into padding_idx)"

    def forward(weight, indices, padding_idx=NO_PADDING, scale_grad_by_freq=False,
                sparse=False):
        return weight[_index_array(indices)], (weight.shape[0],)

    def backward(ctx, grad):        # PyTorch's embedding_dense_backward, its own node
        if ctx.sparse:
            return (_sparse_backward(grad, ctx.indices, ctx.weight_sym_argsize_0,
                                     ctx.padding_idx, ctx.scale_grad_by_freq),)
        return (EmbeddingDenseBackward.apply(grad, ctx.indices, ctx.weight_sym_argsize_0,
                                             ctx.padding_idx, ctx.scale_grad_by_freq),)

    @classmethod
    def sample_inputs(cls, make, shape):
        # a padded row's gradient is 0 by design, not the finite difference: pad an unused row
        n = max((shape + (3,))[0], 3)
        idx = new_tensor(np.array([[0, n - 1], [n - 1, n - 1]]))
        yield make((n, 2)), idx
        yield make((n, 3)), idx, 1, False, False


def _sparse_backward(grad: Tensor, indices: Tensor, num_weights: int, padding_idx: int,
                     scale_grad_by_freq: bool) -> Tensor:
    """PyTorch's embedding_sparse_backward: a sparse COO gradient whose entries are the
    looked-up rows, in input order, uncoalesced (padding_idx's entries left out)."""
    if scale_grad_by_freq:
        raise RuntimeError("embedding_backward: scale_grad_by_freq not supported with sparse "
                           "gradients")
    idx = _index_array(indices).reshape(-1)
    g = grad._data
    # a view where numpy can make one, as PyTorch's reshape: the values keep the grad's
    # strides (whether they are contiguous decides how a later gradient is added)
    values = g.reshape(idx.size, g.shape[-1])
    keep = idx != _signed(padding_idx)
    if not keep.all():
        idx, values = idx[keep], values[keep]
    return sparse_tensor(idx[None, :].copy(), values, (num_weights, g.shape[-1]))


class EmbeddingDenseBackward(Op):
    """out[k] = sum of grad rows i with indices[i] == k (k != padding_idx), / count if scaled"""
    grad_fn_name, name = "EmbeddingDenseBackwardBackward0", "embedding_dense_backward"
    saves = ("indices", "padding_idx")
    rule = "embedding of grad: each looked-up row gets its weight row's gradient"

    def forward(grad_output, indices, num_weights, padding_idx=NO_PADDING,
                scale_grad_by_freq=False):
        idx = _index_array(indices).reshape(-1)
        rows = grad_output.reshape(idx.size, grad_output.shape[-1])
        keep = idx != _signed(padding_idx)
        out = np.zeros((num_weights, grad_output.shape[-1]), grad_output.dtype)
        if scale_grad_by_freq:       # PyTorch adds grad * (1 / count) for each occurrence
            counts = np.bincount(idx[keep], minlength=num_weights)
            scale = (1.0 / np.maximum(counts, 1)).astype(grad_output.dtype)
            rows = rows * scale[np.where(keep, idx, 0)][:, None]
        # one row after another, in the order of the indices: PyTorch's order of additions
        np.add.at(out, idx[keep], rows[keep])
        return out

    def backward(ctx, grad):        # each looked-up position reads its row's gradient back
        rows = Embedding.apply(grad, ctx.indices)
        pad = _signed(ctx.padding_idx)
        if pad < 0:
            return (rows,)
        keep = (_index_array(ctx.indices) != pad)[..., None].astype(grad._data.dtype)
        return (rows * new_tensor(keep),)

    @classmethod
    def sample_inputs(cls, make, shape):
        idx = new_tensor(np.array([[0, 2], [2, 2]]))
        yield make((2, 2, 3)), idx, 4
        yield make((2, 2, 3)), idx, 3, 0


__all__ = ["Embedding", "EmbeddingDenseBackward", "NO_PADDING"]
