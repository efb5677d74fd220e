"""nn.BatchNorm2d: statistics over N, H and W per channel, running averages, eval mode, and
the code it shares with BatchNorm1d."""
import numpy as np
import pytest

import gradstep.engine as torch
from gradstep.engine.nn.normalization import _BatchNorm


def test_training_normalises_each_channel_and_updates_running_stats():
    x = np.random.default_rng(0).standard_normal((4, 3, 5, 6)) * 2 + 1
    m = torch.nn.BatchNorm2d(3, momentum=0.25).double()
    y = m(torch.tensor(x)).detach().numpy()
    mean, var = x.mean((0, 2, 3)), x.var((0, 2, 3))
    want = (x - mean[None, :, None, None]) / np.sqrt(var[None, :, None, None] + 1e-5)
    np.testing.assert_allclose(y, want, rtol=1e-10, atol=1e-10)
    n = 4 * 5 * 6
    np.testing.assert_allclose(m.running_mean.numpy(), 0.25 * mean, rtol=1e-12)
    np.testing.assert_allclose(m.running_var.numpy(), 0.75 + 0.25 * var * n / (n - 1), rtol=1e-12)
    assert m.num_batches_tracked.item() == 1


def test_eval_uses_the_running_stats():
    m = torch.nn.BatchNorm2d(2)
    m.running_mean.copy_(torch.tensor([1.0, -1.0]))
    m.running_var.copy_(torch.tensor([4.0, 0.25]))
    m.eval()
    y = m(torch.ones(1, 2, 1, 2))
    np.testing.assert_allclose(y.detach().numpy()[0, :, 0, 0], [0.0, 2.0 / np.sqrt(0.25 + 1e-5)],
                               rtol=1e-6, atol=1e-7)
    assert m.num_batches_tracked.item() == 0


def test_shares_the_batch_norm_base_and_checks_rank():
    assert issubclass(torch.nn.BatchNorm2d, _BatchNorm) and issubclass(torch.nn.BatchNorm1d,
                                                                         _BatchNorm)
    with pytest.raises(ValueError, match=r"expected 4D input \(got 3D input\)"):
        torch.nn.BatchNorm2d(2)(torch.ones(2, 2, 3))
    assert repr(torch.nn.BatchNorm2d(3)) == ("BatchNorm2d(3, eps=1e-05, momentum=0.1, "
                                             "affine=True, bias=True, track_running_stats=True)")
