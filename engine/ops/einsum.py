"""`torch.einsum` for one or two operands, decomposed as PyTorch decomposes it.

PyTorch has no einsum node: it rewrites the equation into diagonal, unsqueeze, permute, sum,
mul and a batched matrix product (its `sumproduct_pair`), so `grad_fn` shows those ops'
nodes (`'ij,jk->ik'` ends in ViewBackward0 over PermuteBackward0, ViewBackward0 and
BmmBackward0). This module follows the same steps with the engine's ops, so the graph, and
with it every gradient, is PyTorch's. Ellipses and more than two operands are refused.
"""
from __future__ import annotations

import string

from ..tensor import Tensor
from .linalg import Bmm

_LETTERS = string.ascii_uppercase + string.ascii_lowercase   # PyTorch's label order


def _parse(equation: str, operands: list) -> tuple:
    """(input label strings, output labels), with PyTorch's checks and messages."""
    eq = equation.replace(" ", "")
    if "." in eq:
        raise NotImplementedError("einsum(): ellipsis ('...') is not supported by this engine")
    lhs, arrow, rhs = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) > len(operands):
        raise RuntimeError("einsum(): fewer operands were provided than specified in the "
                           "equation")
    if len(terms) < len(operands):
        raise RuntimeError("einsum(): more operands were provided than specified in the "
                           "equation")
    for i, (term, op) in enumerate(zip(terms, operands)):
        for c in term:
            if c not in _LETTERS:
                raise RuntimeError(f"einsum(): invalid subscript given at index {i} in the "
                                   f"equation string, subscripts must be in [a-zA-Z]")
        if len(term) != op.ndim:
            raise RuntimeError(f"einsum(): the number of subscripts in the equation "
                               f"({len(term)}) does not match the number of dimensions "
                               f"({op.ndim}) for operand {i} and no ellipsis was given")
    if len(terms) > 2:
        raise NotImplementedError("einsum(): this engine supports one or two operands, got "
                                  f"{len(terms)}")
    counts = {c: sum(t.count(c) for t in terms) for c in _LETTERS}
    if not arrow:       # implicit output: the labels seen once, in alphabetical order
        return terms, [c for c in _LETTERS if counts[c] == 1]
    for c in rhs:
        if counts.get(c, 0) == 0:
            raise RuntimeError(f"einsum(): output subscript {c} does not appear in the "
                               "equation for any input operand")
    return terms, list(rhs)


def _align(op: Tensor, term: str, order: dict) -> Tensor:
    """Take diagonals of repeated labels, add size-1 dims for missing ones and permute the
    operand's dims into the order of `order` (label -> position)."""
    first: dict = {}
    perm = [-1] * len(order)
    dim = 0
    for c in term:
        if c in first:     # a repeated label: its diagonal, moved to the first one's place
            op = op.diagonal(0, first[c], dim).movedim(-1, first[c])
        else:
            first[c] = dim
            perm[order[c]] = dim
            dim += 1
    for i, p in enumerate(perm):
        if p == -1:
            op = op.unsqueeze(-1)
            perm[i] = dim
            dim += 1
    return op.permute(tuple(perm))


def _sumproduct_pair(left: Tensor, right: Tensor, sum_dims: list) -> Tensor:
    """PyTorch's sumproduct_pair (keepdim): multiply and sum out `sum_dims` through bmm."""
    if not sum_dims:
        return left * right
    lro, lo, ro = [], [], []
    lro_size = lo_size = ro_size = sum_size = 1
    for i in range(left.ndim):
        sl, sr = left._data.shape[i] != 1, right._data.shape[i] != 1
        if i in sum_dims:
            if sl and sr:
                sum_size *= left._data.shape[i]
            elif sl:
                left = left.sum(i, keepdim=True)
            elif sr:
                right = right.sum(i, keepdim=True)
        elif sl and sr:
            lro.append(i)
            lro_size *= left._data.shape[i]
        elif sl:
            lo.append(i)
            lo_size *= left._data.shape[i]
        else:
            ro.append(i)
            ro_size *= right._data.shape[i]
    out_size = ([left._data.shape[d] for d in lro + lo] + [1] * len(sum_dims)
                + [right._data.shape[d] for d in ro])
    order = lro + lo + sum_dims + ro
    operm = [order.index(d) for d in range(len(order))]
    left = left.permute(tuple(lro + lo + sum_dims + ro)).reshape(lro_size, lo_size, sum_size)
    right = right.permute(tuple(lro + sum_dims + ro + lo)).reshape(lro_size, sum_size, ro_size)
    return Bmm.apply(left, right).view(tuple(out_size)).permute(tuple(operm))


def _output_order_swapped(a: Tensor, b: Tensor, n_out: int) -> bool:
    """Whether every output dim only `a` has comes after every output dim only `b` has:
    PyTorch 2.13 then passes the pair as (b, a), so that bmm's result needs no reordering
    (measured against it; its graph shows which operand is bmm's first)."""
    only_a = [d for d in range(n_out) if a._data.shape[d] != 1 and b._data.shape[d] == 1]
    only_b = [d for d in range(n_out) if b._data.shape[d] != 1 and a._data.shape[d] == 1]
    return bool(only_a and only_b) and min(only_a) > max(only_b)


def einsum(equation: str, *operands) -> Tensor:
    """Sum of products over the labels of an Einstein-summation `equation` (`torch.einsum`),
    for one or two operands, e.g. 'ij,jk->ik', 'i,i->', 'ij->ji', 'bij,bjk->bik', 'ii->i'.

    Example:
        >>> import engine as torch
        >>> a = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
        >>> y = torch.einsum('ij,jk->ik', a, a)
        >>> y.tolist(), type(y.grad_fn).__name__
        ([[7.0, 10.0], [15.0, 22.0]], 'ViewBackward0')
    """
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    terms, out = _parse(equation, list(operands))
    rest = [c for c in _LETTERS if c not in out and any(c in t for t in terms)]
    order = {c: i for i, c in enumerate(out + rest)}
    n_out, n_all = len(out), len(order)
    ops = [_align(op, t, order) for op, t in zip(operands, terms)]
    if len(ops) == 1:
        return ops[0].sum(tuple(range(n_out, n_all))) if n_all > n_out else ops[0]
    a, b = ops
    sum_dims, a_only, b_only = [], [], []
    for d in range(n_out, n_all):
        in_a, in_b = a._data.shape[d] != 1, b._data.shape[d] != 1
        if in_a and in_b:
            sum_dims.append(d)
        elif in_a:
            a_only.append(d)
        elif in_b:
            b_only.append(d)
    if a_only:      # labels only one operand has are summed out before the product
        a = a.sum(tuple(a_only), keepdim=True)
    if b_only:
        b = b.sum(tuple(b_only), keepdim=True)
    if _output_order_swapped(a, b, n_out):   # PyTorch then multiplies b by a
        a, b = b, a
    result = _sumproduct_pair(a, b, sum_dims)
    if n_all > n_out:   # the contracted dims are size 1 now: a view drops them
        return result.view(tuple(result._data.shape[:n_out]))
    return result
