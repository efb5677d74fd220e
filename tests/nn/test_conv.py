"""Convolution against a direct loop over output positions and kernel offsets (numpy only)."""
import itertools

import numpy as np
import pytest

import gradstep.engine as torch
import gradstep.engine.nn.functional as F


def loop_conv2d(x, w, b, stride, padding, dilation, groups):
    """The definition written out: every output pixel is a sum over its window and channels."""
    xp = np.pad(x, [(0, 0), (0, 0), (padding[0],) * 2, (padding[1],) * 2])
    n, c, h, wd = xp.shape
    o, cg, kh, kw = w.shape
    oh = (h - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (wd - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    out = np.zeros((n, o, oh, ow))
    per = o // groups
    for bi, oc, i, j in itertools.product(range(n), range(o), range(oh), range(ow)):
        g = oc // per
        total = 0.0 if b is None else b[oc]
        for ci, p, q in itertools.product(range(cg), range(kh), range(kw)):
            total += (w[oc, ci, p, q] * xp[bi, g * cg + ci, i * stride[0] + p * dilation[0],
                                           j * stride[1] + q * dilation[1]])
        out[bi, oc, i, j] = total
    return out


CASES = [((1, 1), (0, 0), (1, 1), 1, True), ((2, 1), (1, 2), (1, 1), 1, False),
         ((1, 2), (2, 1), (2, 1), 2, True), ((2, 2), (1, 1), (2, 2), 4, True)]


@pytest.mark.parametrize("stride,padding,dilation,groups,bias", CASES)
def test_conv2d_matches_loop_and_gradients(stride, padding, dilation, groups, bias):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 4, 7, 6))
    w = rng.standard_normal((8, 4 // groups, 3, 2))
    b = rng.standard_normal(8) if bias else None
    want = loop_conv2d(x, w, b, stride, padding, dilation, groups)
    tx, tw = torch.tensor(x, requires_grad=True), torch.tensor(w, requires_grad=True)
    tb = torch.tensor(b, requires_grad=True) if bias else None
    y = F.conv2d(tx, tw, tb, stride, padding, dilation, groups)
    np.testing.assert_allclose(y.detach().numpy(), want, atol=1e-10)
    seed = rng.standard_normal(want.shape)
    (y * torch.tensor(seed)).sum().backward()
    eps = 1e-6
    for t, arr in ((tx, x), (tw, w)) + (((tb, b),) if bias else ()):
        for idx in [tuple(rng.integers(0, s) for s in arr.shape) for _ in range(4)]:
            up, down = arr.copy(), arr.copy()
            up[idx] += eps
            down[idx] -= eps
            args = {id(x): (x, w, b), id(w): (x, w, b), id(b): (x, w, b)}[id(arr)]
            f = [np.sum(seed * loop_conv2d(*(m if a is arr else a for a in args),
                                           stride, padding, dilation, groups))
                 for m in (up, down)]
            assert t.grad.numpy()[idx] == pytest.approx((f[0] - f[1]) / (2 * eps), abs=1e-5)


def test_conv1d_is_conv2d_of_height_one():
    rng = np.random.default_rng(1)
    x, w = rng.standard_normal((2, 3, 9)), rng.standard_normal((4, 3, 3))
    y = F.conv1d(torch.tensor(x), torch.tensor(w), stride=2, padding=1, dilation=2)
    want = loop_conv2d(x[:, :, None], w[:, :, None], None, (1, 2), (0, 1), (1, 2), 1)[:, :, 0]
    np.testing.assert_allclose(y.numpy(), want, atol=1e-10)


def test_double_backward_is_refused_loudly():
    x = torch.ones(1, 1, 3, 3, requires_grad=True)
    y = F.conv2d(x, torch.ones(1, 1, 2, 2))
    with pytest.raises(NotImplementedError, match="create_graph"):
        torch.autograd.grad(y.sum(), x, create_graph=True)
