"""F.pad's copying modes against numpy's own padding (reflect = numpy "reflect", replicate =
"edge", circular = "wrap"), and their gradients: each input entry gets the sum of the output
gradients of the positions that copied it."""
import numpy as np
import pytest

import gradstep.engine as torch
import gradstep.engine.nn.functional as F

NUMPY_MODE = {"reflect": "reflect", "replicate": "edge", "circular": "wrap"}
SHAPES_PADS = [((2, 5), (2, 3)), ((1, 2, 4), (3, 1)), ((2, 3, 4), (1, 2, 2, 1)),
               ((1, 1, 3, 4), (3, 0, 0, 2)), ((1, 2, 3, 4), (1, 1, 2, 0, 1, 1)),
               ((2, 3, 3, 4, 2), (1, 1, 0, 2, 2, 1))]


@pytest.mark.parametrize("mode", list(NUMPY_MODE))
@pytest.mark.parametrize("shape,pad", SHAPES_PADS)
def test_values_and_gradients_match_numpy_padding(mode, shape, pad):
    data = np.random.default_rng(0).standard_normal(shape)
    x = torch.tensor(data, requires_grad=True)
    y = F.pad(x, pad, mode=mode)
    k = len(pad) // 2
    widths = [(0, 0)] * (len(shape) - k) + [(pad[2 * i], pad[2 * i + 1])
                                             for i in reversed(range(k))]
    np.testing.assert_array_equal(y.detach().numpy(), np.pad(data, widths, NUMPY_MODE[mode]))
    w = np.random.default_rng(1).standard_normal(y.shape)
    y.backward(torch.tensor(w))
    # the adjoint: <pad(x), w> == <x, grad> for every x
    probe = np.random.default_rng(2).standard_normal(shape)
    lhs = (np.pad(probe, widths, NUMPY_MODE[mode]) * w).sum()
    np.testing.assert_allclose((probe * x.grad.numpy()).sum(), lhs, rtol=1e-12)


def test_negative_padding_crops_before_copying():
    x = torch.tensor([[[1.0, 2.0, 3.0]]])
    assert F.pad(x, (-1, 1), mode="reflect").tolist() == [[[2.0, 3.0, 2.0]]]
    assert F.pad(x, (-1, 1), mode="replicate").tolist() == [[[2.0, 3.0, 3.0]]]
    assert F.pad(x, (-1, 1), mode="circular").tolist() == [[[2.0, 3.0, 2.0]]]
