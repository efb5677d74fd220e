"""2-D pooling against direct loops over windows (numpy only)."""
import itertools

import numpy as np
import pytest

import gradstep.engine as torch
import gradstep.engine.nn.functional as F
from gradstep.engine.ops.pooling import out_size


def loop_pool(x, k, s, p, d, ceil_mode, how, include_pad=True):
    """Each output: max or mean over the window positions inside the input (mean divides by
    the window clipped to the padded input, or to the input without count_include_pad)."""
    n, c, h, w = x.shape
    oh, ow = (out_size(m, k[i], s[i], p[i], d[i], ceil_mode) for i, m in enumerate((h, w)))
    out = np.zeros((n, c, oh, ow))
    for i, j in itertools.product(range(oh), range(ow)):
        r0, c0 = i * s[0] - p[0], j * s[1] - p[1]
        rows = [r0 + a * d[0] for a in range(k[0])]
        cols = [c0 + b * d[1] for b in range(k[1])]
        inside = [(r, q) for r in rows for q in cols if 0 <= r < h and 0 <= q < w]
        vals = np.stack([x[:, :, r, q] for r, q in inside], axis=-1)
        if how == "max":
            out[:, :, i, j] = vals.max(-1)
        else:
            padded = ((min(r0 + k[0], h + p[0]) - r0) * (min(c0 + k[1], w + p[1]) - c0))
            out[:, :, i, j] = vals.sum(-1) / (padded if include_pad else len(inside))
    return out


CASES = [((2, 2), (2, 2), (0, 0), (1, 1), False), ((3, 3), (2, 1), (1, 1), (1, 1), True),
         ((2, 3), (1, 2), (1, 1), (2, 2), True), ((3, 2), (2, 2), (1, 0), (1, 1), False)]


@pytest.mark.parametrize("k,s,p,d,ceil_mode", CASES)
def test_max_pool2d_matches_loop(k, s, p, d, ceil_mode):
    x = np.random.default_rng(0).standard_normal((2, 3, 7, 6))
    y = F.max_pool2d(torch.tensor(x), k, s, p, d, ceil_mode)
    np.testing.assert_array_equal(y.numpy(), loop_pool(x, k, s, p, d, ceil_mode, "max"))


@pytest.mark.parametrize("k,s,p,d,ceil_mode", [c for c in CASES if c[3] == (1, 1)])
@pytest.mark.parametrize("include_pad", [True, False])
def test_avg_pool2d_matches_loop(k, s, p, d, ceil_mode, include_pad):
    x = np.random.default_rng(1).standard_normal((2, 3, 7, 6))
    y = F.avg_pool2d(torch.tensor(x), k, s, p, ceil_mode, include_pad)
    want = loop_pool(x, k, s, p, d, ceil_mode, "avg", include_pad)
    np.testing.assert_allclose(y.numpy(), want, atol=1e-12)


def test_max_pool2d_gradient_goes_to_the_maximum():
    x = torch.tensor([[[[1., 3.], [2., 0.]]]], requires_grad=True)
    F.max_pool2d(x, 2).sum().backward()
    assert x.grad.tolist() == [[[[0.0, 1.0], [0.0, 0.0]]]]
