"""Running extremes (cummax/cummin) against a plain loop over PyTorch's rule, and the dims
that grad_fns save as given (NOTE [dims as given], NOTE [saved integers])."""
import math

import numpy as np
import pytest

import gradstep.engine as torch
from gradstep.engine.ops._dims import dim_of, dims_in_order, dims_of

U64 = 2 ** 64


def _reference(row: list, better) -> tuple:
    """PyTorch's kernel, one element at a time: a nan, or a tie or better while the best so
    far is not nan, takes over."""
    values, indices, best, at = [], [], None, 0
    for i, x in enumerate(row):
        if best is None or math.isnan(x) or (not math.isnan(best) and better(x, best)):
            best, at = x, i
        values.append(best)
        indices.append(at)
    return values, indices


@pytest.mark.parametrize("op,better", [("cummax", lambda x, b: x >= b),
                                       ("cummin", lambda x, b: x <= b)])
def test_running_extremes_follow_pytorch_rule(op, better):
    rng = np.random.default_rng(0)
    for _ in range(20):
        data = rng.integers(0, 4, (3, 6)).astype(float)
        data[rng.random(data.shape) < 0.1] = np.nan
        for dim in (0, 1, -1):
            r = getattr(torch, op)(torch.tensor(data), dim)
            moved = np.moveaxis(data, dim, -1)
            for k, row in enumerate(moved):
                want_v, want_i = _reference(list(row), better)
                got_v = np.moveaxis(r.values.numpy(), dim, -1)[k]
                got_i = np.moveaxis(r.indices.numpy(), dim, -1)[k]
                np.testing.assert_array_equal(got_v, want_v)
                assert got_i.tolist() == want_i


def test_cummax_gradient_adds_up_at_the_indices():
    x = torch.tensor([[1.0, 3.0, 2.0, 3.0], [4.0, 1.0, 1.0, 0.0]], requires_grad=True)
    r = x.cummax(-1)
    r.values.backward(torch.ones(2, 4))
    assert x.grad.tolist() == [[1.0, 2.0, 0.0, 1.0], [4.0, 0.0, 0.0, 0.0]]
    assert r.values.grad_fn._saved_dim == U64 - 1


def test_dim_helpers_keep_the_given_form_only_when_it_differs():
    assert type(dim_of(1, 3)) is int and type(dims_of((0, 2), 3)) is tuple
    d = dim_of(-1, 3)
    assert (d, d.given) == (2, -1)
    ds = dims_of([2, -3], 3)
    assert (ds, ds.given) == ((0, 2), (2, -3))
    assert dims_in_order((-1, 0), 2).given == (-1, 0)
    with pytest.raises(IndexError, match=r"range of \[-3, 2\], but got 3"):
        dim_of(3, 3)


def test_saved_integers_read_back_unsigned():
    x = torch.ones(2, 3, requires_grad=True)
    assert x.sum((-1, 0)).grad_fn._saved_dim == (U64 - 1, 0)
    assert x.transpose(-1, 0).grad_fn._saved_dim0 == U64 - 1
    assert x.select(1, -2).grad_fn._saved_index == U64 - 2
    assert x.roll(-1, 1).grad_fn._saved_shifts == (U64 - 1,)
    assert x.sum(-1).grad_fn.dim == (1,)          # what the backward reads stays normalised
    assert (x * 2).sum(1).grad_fn._saved_dim == (1,)


def test_a_given_dim_passed_on_keeps_its_form_only_where_it_names_the_same_dim():
    d = dim_of(-1, 3)                       # dim 2 of a 3-d tensor, given as -1
    assert dim_of(d, 3).given == -1         # a backward handing it on to a 3-d op
    assert type(dim_of(d, 4)) is int        # -1 would name dim 3 there: the value wins
    assert dims_in_order((d,), 3).given == (-1,)
    assert dims_of(dims_of((-1, 0), 3), 3).given == (-1, 0)
