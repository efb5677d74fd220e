"""Adaptive pooling against direct loops over PyTorch's windows (numpy only)."""
import math

import numpy as np
import pytest

import gradstep.engine as torch
import gradstep.engine.nn.functional as F


def loop_adaptive(x, out, how):
    """Output cell (i, j) reduces rows floor(i*H/oh)..ceil((i+1)*H/oh), likewise columns."""
    h, w = x.shape[-2:]
    res = np.zeros(x.shape[:-2] + out)
    for i in range(out[0]):
        for j in range(out[1]):
            win = x[..., i * h // out[0]:math.ceil((i + 1) * h / out[0]),
                    j * w // out[1]:math.ceil((j + 1) * w / out[1])]
            res[..., i, j] = win.max((-1, -2)) if how == "max" else win.mean((-1, -2))
    return res


@pytest.mark.parametrize("shape,out", [((2, 3, 13, 13), (6, 6)), ((3, 5, 7), (3, 4)),
                                       ((1, 1, 2, 3), (5, 4)), ((1, 2, 8, 8), (4, 2))])
@pytest.mark.parametrize("how", ["avg", "max"])
def test_adaptive_pool2d_matches_the_window_loops(shape, out, how):
    data = np.random.default_rng(0).standard_normal(shape)
    fn = F.adaptive_max_pool2d if how == "max" else F.adaptive_avg_pool2d
    got = fn(torch.tensor(data), out).numpy()
    np.testing.assert_allclose(got, loop_adaptive(data, out, how), rtol=1e-12)


def test_adaptive_max_indices_point_at_the_maxima():
    x = torch.tensor(np.random.default_rng(1).standard_normal((2, 5, 7)))
    values, idx = F.adaptive_max_pool2d(x, (2, 3), return_indices=True)
    flat = x.reshape(2, -1)
    assert torch.equal(flat.gather(1, idx.reshape(2, -1)).reshape(2, 2, 3), values)


def test_adaptive_avg_backward_spreads_each_cells_grad_over_its_window():
    x = torch.ones(1, 1, 3, 3, requires_grad=True)
    F.adaptive_avg_pool2d(x, 2).sum().backward()
    # 3 rows into 2 cells: windows 0..2 and 1..3 share the middle row (and column)
    assert x.grad[0, 0].tolist() == [[0.25, 0.5, 0.25], [0.5, 1.0, 0.5], [0.25, 0.5, 0.25]]


def test_pool1d_is_the_2d_pool_over_a_height_of_one():
    s = torch.tensor([[1., 4., 2., 8., 5.]])
    assert F.max_pool1d(s, 2).tolist() == [[4.0, 8.0]]
    assert F.avg_pool1d(s, 2, stride=1).tolist() == [[2.5, 3.0, 5.0, 6.5]]
    assert F.adaptive_avg_pool1d(s, 1).tolist() == [[4.0]]
