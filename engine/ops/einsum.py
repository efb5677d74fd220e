"""`torch.einsum`, decomposed as PyTorch decomposes it.

PyTorch has no einsum node: it rewrites the equation into diagonal, unsqueeze, permute, sum,
mul and a batched matrix product (its `sumproduct_pair`), so `grad_fn` shows those ops'
nodes (`'ij,jk->ik'` ends in ViewBackward0 over PermuteBackward0, ViewBackward0 and
BmmBackward0). This module follows the same steps with the engine's ops, so the graph, and
with it every gradient, is PyTorch's: ellipses ("...") broadcast like leading dimensions, and
three or more operands are contracted left to right, each pair's product feeding the next
(PyTorch's order without opt_einsum), a label summed out as soon as no later operand has it.
"""
from __future__ import annotations

import string
from collections import deque

from ..tensor import Tensor
from .linalg import Bmm

_LETTERS = string.ascii_uppercase + string.ascii_lowercase   # PyTorch's label order
ELLIPSIS = "..."


def _parse_inputs(lhs: str, n_ops: int) -> list:
    """Each operand's labels (ELLIPSIS for "..."), with PyTorch's checks and messages."""
    labels: list = [[]]
    seen_ellipsis = False
    i = 0
    while i < len(lhs):
        ch, op = lhs[i], len(labels) - 1
        if ch == ".":
            if seen_ellipsis:
                raise RuntimeError(f"einsum(): found '.' for operand {op} for which an "
                                   "ellipsis was already found")
            if not (i + 2 < len(lhs) and lhs[i + 1] == "." and lhs[i + 2] == "."):
                raise RuntimeError(f"einsum(): found '.' for operand {op} that is not part "
                                   "of any ellipsis")
            labels[-1].append(ELLIPSIS)
            seen_ellipsis, i = True, i + 2
        elif ch == ",":
            labels.append([])
            if len(labels) > n_ops:
                raise RuntimeError("einsum(): fewer operands were provided than specified in "
                                   "the equation")
            seen_ellipsis = False
        elif ch != " ":
            if ch not in _LETTERS:
                raise RuntimeError(f"einsum(): invalid subscript given at index {i} in the "
                                   "equation string, subscripts must be in [a-zA-Z]")
            labels[-1].append(ch)
        i += 1
    if len(labels) != n_ops:
        raise RuntimeError("einsum(): more operands were provided than specified in the "
                           "equation")
    return labels


def _ellipsis_dims(labels: list, operands) -> int:
    """The most dimensions any ellipsis covers; checks each operand's label count."""
    most = 0
    for i, (terms, op) in enumerate(zip(labels, operands)):
        n = len([c for c in terms if c != ELLIPSIS])
        if ELLIPSIS in terms:
            most = max(most, op.ndim - n)
            if n > op.ndim:
                raise RuntimeError(f"einsum(): the number of subscripts in the equation ({n}) "
                                   f"is more than the number of dimensions ({op.ndim}) for "
                                   f"operand {i}")
        elif n != op.ndim:
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({n}) does "
                               f"not match the number of dimensions ({op.ndim}) for operand "
                               f"{i} and no ellipsis was given")
    return most


def _layout(equation: str, labels: list, n_ell: int) -> tuple:
    """Where each label (and the ellipsis' first dim) goes in the aligned shape: output dims
    first, then the dims to sum out. Returns (positions, ellipsis start, output dims, all)."""
    counts = {c: sum(t.count(c) for t in labels) for c in _LETTERS}
    pos: dict = {}
    arrow = equation.find("->")
    if arrow < 0:       # implicit output: the ellipsis, then labels seen once, alphabetically
        ell_at, n, ell_out = 0, n_ell, True
        for c in _LETTERS:
            if counts[c] == 1:
                pos[c], n = n, n + 1
    else:
        ell_at, n, ell_out = 0, 0, False
        rhs = equation[arrow + 2:]
        i = 0
        while i < len(rhs):
            ch = rhs[i]
            if ch == ".":
                if ell_out:
                    raise RuntimeError("einsum(): found '.' for output but an ellipsis (...) "
                                       "was already found")
                if not (i + 2 < len(rhs) and rhs[i + 1] == "." and rhs[i + 2] == "."):
                    raise RuntimeError("einsum(): found '.' for output that is not part of "
                                       "any ellipsis (...)")
                ell_at, n, ell_out, i = n, n + n_ell, True, i + 2
            elif ch != " ":
                if ch not in _LETTERS:
                    raise RuntimeError(f"einsum(): invalid subscript given at index "
                                       f"{arrow + 2 + i} in the equation string, subscripts "
                                       "must be in [a-zA-Z]")
                if counts[ch] == 0 or ch in pos:
                    why = ("appears more than once in the output" if ch in pos
                           else "does not appear in the equation for any input operand")
                    raise RuntimeError(f"einsum(): output subscript {ch} {why}")
                pos[ch], n = n, n + 1
            i += 1
    n_out = n
    if not ell_out:     # the ellipsis' dims are summed out, before the other labels
        ell_at, n = n, n + n_ell
    for c in _LETTERS:
        if counts[c] and c not in pos:
            pos[c], n = n, n + 1
    return pos, ell_at, n_out, n


def _align(i: int, op: Tensor, terms: list, layout: tuple, n_ell: int, seen: dict,
           counts: list) -> Tensor:
    """Operand i with diagonals taken for repeated labels, size-1 dims added for missing ones
    and its dims permuted into the aligned order; `seen` keeps each label's (or ellipsis
    dim's) size for the broadcast checks, `counts` how many operands have each dim."""
    pos, ell_at, _, n_all = layout
    perm = [-1] * n_all
    dim = 0
    for c in terms:
        if c == ELLIPSIS:
            covered = op.ndim - (len(terms) - 1)
            for j in range(n_ell - covered, n_ell):
                size = op._data.shape[dim]
                if size != 1:
                    if seen.get(j, 1) not in (1, size):
                        raise RuntimeError(
                            f"einsum(): dimension {dim} covered by ellipsis in operand {i}has "
                            f"size {size} which does not broadcast with previously seen "
                            f"ellipsis with size {seen[j]} for the respective dimension")
                    seen[j] = size
                    counts[ell_at + j] += 1
                perm[ell_at + j], dim = dim, dim + 1
        elif perm[pos[c]] == -1:
            size = op._data.shape[dim]
            if size != 1:
                if seen.get(c, 1) not in (1, size):
                    raise RuntimeError(f"einsum(): subscript {c} has size {size} for operand "
                                       f"{i} which does not broadcast with previously seen "
                                       f"size {seen[c]}")
                seen[c] = size
                counts[pos[c]] += 1
            perm[pos[c]], dim = dim, dim + 1
        else:               # a repeated label: its diagonal, moved to the first one's place
            prev = perm[pos[c]]
            a, b = op._data.shape[dim], op._data.shape[prev]
            if a != b:
                raise RuntimeError(f"einsum(): subscript {c} is repeated for operand {i} but "
                                   f"the sizes don't match, {a} != {b}")
            op = op.diagonal(0, prev, dim).movedim(-1, prev)
    for k, p in enumerate(perm):
        if p == -1:
            op = op.unsqueeze(dim)
            perm[k], dim = dim, dim + 1
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


def _output_order_swapped(a: Tensor, b: Tensor, keep: list) -> bool:
    """Whether every kept dim only `a` has comes after every kept dim only `b` has: PyTorch
    2.13 then passes a pair of two input operands as (b, a), so that bmm's result needs no
    reordering; a pair with an earlier product keeps its order (measured against it; its
    graph shows which operand is bmm's first)."""
    only_a = [d for d in keep if a._data.shape[d] != 1 and b._data.shape[d] == 1]
    only_b = [d for d in keep if b._data.shape[d] != 1 and a._data.shape[d] == 1]
    return bool(only_a and only_b) and min(only_a) > max(only_b)


def _contract(a: Tensor, b: Tensor, n_out: int, n_all: int, counts: list,
              inputs: bool) -> Tensor:
    """One step of PyTorch's left-to-right contraction: labels no other operand has left are
    summed out of a or b alone, those a and b share last are summed by their product."""
    sum_dims, a_only, b_only = [], [], []
    for d in range(n_out, n_all):
        in_a, in_b = a._data.shape[d] != 1, b._data.shape[d] != 1
        if in_a and in_b:
            counts[d] -= 1
            if counts[d] == 1:
                sum_dims.append(d)
                counts[d] = 0
        elif counts[d] == 1 and (in_a or in_b):
            (a_only if in_a else b_only).append(d)
            counts[d] = 0
    if a_only:
        a = a.sum(tuple(a_only), keepdim=True)
    if b_only:
        b = b.sum(tuple(b_only), keepdim=True)
    keep = [d for d in range(n_all) if d not in sum_dims]
    if inputs and _output_order_swapped(a, b, keep):   # PyTorch then multiplies b by a
        a, b = b, a
    return _sumproduct_pair(a, b, sum_dims)


def einsum(equation: str, *operands) -> Tensor:
    """Sum of products over the labels of an Einstein-summation `equation` (`torch.einsum`),
    e.g. 'ij,jk->ik', 'i,i->', 'ij->ji', 'bij,bjk->bik', 'ii->i', '...ij,...jk->...ik',
    'ij,jk,kl->il' (contracted left to right).

    Example:
        >>> import gradstep.engine as torch
        >>> a = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
        >>> y = torch.einsum('ij,jk->ik', a, a)
        >>> y.tolist(), type(y.grad_fn).__name__
        ([[7.0, 10.0], [15.0, 22.0]], 'ViewBackward0')
        >>> torch.einsum('...i,...i->...', a, a).tolist()
        [5.0, 25.0]
    """
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if not operands:
        raise RuntimeError("einsum(): must provide at least one operand")
    arrow = equation.find("->")
    labels = _parse_inputs(equation if arrow < 0 else equation[:arrow], len(operands))
    n_ell = _ellipsis_dims(labels, operands)
    layout = _layout(equation, labels, n_ell)
    _, _, n_out, n_all = layout
    seen: dict = {}
    counts = [0] * n_all
    ops = deque(_align(i, op, t, layout, n_ell, seen, counts)
                for i, (op, t) in enumerate(zip(operands, labels)))
    if len(ops) == 1:
        return ops[0].sum(tuple(range(n_out, n_all))) if n_all > n_out else ops[0]
    first = True
    while len(ops) > 1:     # left to right: each product becomes the next pair's first
        a, b = ops.popleft(), ops.popleft()
        ops.appendleft(_contract(a, b, n_out, n_all, counts, first))
        first = False
    result = ops[0]
    if n_all > n_out:   # the contracted dims are size 1 now: a view drops them
        return result.view(tuple(result._data.shape[:n_out]))
    return result
