"""Complex tensors: gradients in PyTorch's convention against finite differences, views that
share memory, promotion, printing, and the roundings of complex64 products.

For a real loss L of a complex leaf z = x + iy, PyTorch's `z.grad` is dL/dx + i dL/dy. The
checks below perturb the real and the imaginary part of each element separately and compare.
"""
import numpy as np
import pytest

import gradstep.engine as torch
from gradstep.engine.ops import _complex_order

RNG = np.random.default_rng(7)


def _leaf(shape, dtype=torch.complex128):
    data = RNG.uniform(-2, 2, shape) + 1j * RNG.uniform(-2, 2, shape)
    return torch.tensor(data, dtype=dtype, requires_grad=True)


def _numeric(loss, z, eps=1e-6) -> np.ndarray:
    """dL/dx + i dL/dy for each element of z, by central differences (dL/dx alone for a real
    z)."""
    flat = z.data.numpy().reshape(-1)
    complex_z = np.iscomplexobj(flat)
    out = np.zeros(flat.shape, np.complex128 if complex_z else np.float64)
    steps = ((eps, 1.0), (1j * eps, 1j)) if complex_z else ((eps, 1.0),)
    for i in range(flat.size):
        keep = flat[i]
        for step, unit in steps:
            flat[i] = keep + step
            hi = loss().item()
            flat[i] = keep - step
            lo = loss().item()
            flat[i] = keep
            out[i] += unit * (hi - lo) / (2 * eps)
    return out.reshape(z.shape)


W = torch.tensor([0.5 - 1j, 1.5 + 0.25j, -1 + 2j], dtype=torch.complex128)
R = torch.tensor([1.5, -0.5, 2.0], dtype=torch.float64)
LOSSES = {
    "abs": lambda z: z.abs().sum(),
    "abs squared": lambda z: (z.abs() ** 2).sum(),
    "real and imag": lambda z: (z.real ** 2 * z.imag).sum(),
    "mul then abs": lambda z: (z * W).abs().sum(),
    "div": lambda z: (W / z).real.sum() + (z / W).imag.sum(),
    "exp": lambda z: (z.exp() * W).real.sum(),
    "pow": lambda z: (z ** 3 + z.pow(0.5)).abs().sum(),
    "sin, cos, tanh": lambda z: (z.sin() * W + z.cos() + z.tanh()).abs().sum(),
    "log, sqrt, reciprocal": lambda z: (z.log() + z.sqrt() * W + z.reciprocal()).real.sum(),
    "sigmoid, sinh, expm1": lambda z: (z.sigmoid() + z.sinh() + z.expm1() * W).imag.sum(),
    "conj": lambda z: (z.conj() * W).imag.sum(),
    "angle": lambda z: z.angle().sum(),
    "mean of a real mix": lambda z: (z * R + R).abs().mean(),
    "view_as_real": lambda z: (torch.view_as_real(z) ** 2 * torch.tensor([1.0, 3.0],
                                                                            dtype=torch.float64)).sum(),
    "matmul": lambda z: (z.reshape(3, 1) @ W.reshape(1, 3)).abs().sum() + (z @ W).real,
}


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_gradient_is_dl_dx_plus_i_dl_dy(name):
    z = _leaf((3,))
    loss = LOSSES[name]
    loss(z).backward()
    assert z.grad.dtype == torch.complex128
    np.testing.assert_allclose(z.grad.numpy(), _numeric(lambda: loss(z), z), rtol=1e-5,
                               atol=1e-6)


def test_real_inputs_of_complex_ops_get_the_real_part():
    x = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64, requires_grad=True)
    b = torch.tensor([1.0, 0.25, -0.5], dtype=torch.float64, requires_grad=True)
    z = torch.complex(x, b)
    ((x * W).abs().sum() + (z * z).abs().sum() + (x.to(torch.complex128) * W).imag.sum()
     ).backward()
    assert x.grad.dtype == b.grad.dtype == torch.float64
    for t in (x, b):
        def loss():
            c = torch.complex(x, b)
            return ((x * W).abs().sum() + (c * c).abs().sum()
                    + (x.to(torch.complex128) * W).imag.sum())
        np.testing.assert_allclose(t.grad.numpy(), _numeric(loss, t), rtol=1e-5, atol=1e-6)


def test_polar_gradients_match_finite_differences():
    m = torch.tensor([1.0, 2.0, 0.5], dtype=torch.float64, requires_grad=True)
    th = torch.tensor([0.3, -1.2, 2.5], dtype=torch.float64, requires_grad=True)

    def loss():
        return (torch.polar(m, th) * W).real.sum()
    loss().backward()
    for t in (m, th):
        np.testing.assert_allclose(t.grad.numpy(), _numeric(loss, t), rtol=1e-5, atol=1e-6)


def test_second_order_through_create_graph():
    z = _leaf((2,))
    g, = torch.autograd.grad((z * z).abs().sum(), z, create_graph=True)
    g.abs().sum().backward()     # d/dz of sum |2 |z| z/|z| ... | = 2 z/|z|
    np.testing.assert_allclose(z.grad.numpy(), 2 * z.data.numpy() / np.abs(z.data.numpy()),
                               rtol=1e-6)


def test_views_share_memory_both_ways():
    z = torch.tensor([1 + 2j, 3 - 4j])
    r = torch.view_as_real(z)
    r[1, 0] = 7.0
    z.imag[0] = -5.0
    assert z.tolist() == [1 - 5j, 7 - 4j]
    p = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    c = torch.view_as_complex(p)
    c.real[1] = 9.0
    assert p.tolist() == [[1.0, 2.0], [9.0, 4.0]]


@pytest.mark.parametrize("a,b,want", [
    (torch.float32, torch.complex64, torch.complex64),
    (torch.float64, torch.complex64, torch.complex128),
    (torch.int64, torch.complex128, torch.complex128),
    (torch.bool, torch.complex64, torch.complex64),
])
def test_promote_types(a, b, want):
    assert torch.promote_types(a, b) is want and torch.promote_types(b, a) is want


def test_numbers_promote_as_pytorch():
    assert (torch.tensor([1.0, 2.0], dtype=torch.float64) * 1j).dtype is torch.complex128
    assert (torch.tensor([1, 2]) * 1j).dtype is torch.complex64
    assert (torch.tensor([1.0]) + torch.tensor(1j, dtype=torch.complex128)).dtype \
        is torch.complex64
    assert (torch.tensor([1 + 1j]) * 2.5).dtype is torch.complex64


def test_repr_formats_real_and_imaginary_parts_apart():
    assert repr(torch.tensor([1 + 2j, -3.5 + 0.25j])) == \
        "tensor([ 1.0000+2.0000j, -3.5000+0.2500j])"
    # (Python's -0.5j has a real part of -0.0, and PyTorch shows its sign)
    assert repr(torch.tensor(-0.5j, dtype=torch.complex128)) == \
        "tensor(-0.-0.5000j, dtype=torch.complex128)"
    z = torch.tensor([1 + 1j], requires_grad=True)
    assert repr(z * 2) == "tensor([2.+2.j], grad_fn=<MulBackward0>)"


def test_complex_backward_needs_a_gradient():
    z = torch.tensor([1 + 1j], requires_grad=True)
    with pytest.raises(RuntimeError, match="only for real scalar outputs but got "
                                           "torch.complex64"):
        (z * z).sum().backward()


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8, 9, 12, 17])
def test_complex64_product_and_quotient_stay_close_to_exact(n):
    # the roundings that copy PyTorch's must still be correctly rounded-ish products
    a = (RNG.standard_normal(n) + 1j * RNG.standard_normal(n)).astype(np.complex64)
    b = (RNG.standard_normal(n) + 1j * RNG.standard_normal(n)).astype(np.complex64)
    exact_mul = a.astype(np.complex128) * b
    exact_div = a.astype(np.complex128) / b
    np.testing.assert_allclose(_complex_order.mul(a, b), exact_mul, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(_complex_order.div(a, b), exact_div, rtol=1e-5, atol=1e-6)


def test_blocks_of_eight_and_pairs_round_differently():
    # PyTorch's vector blocks round each product, its paired scalar loop fuses: over many
    # operands the two must disagree somewhere, or the module would be copying nothing
    a = (RNG.standard_normal(4000) + 1j * RNG.standard_normal(4000)).astype(np.complex64)
    b = (RNG.standard_normal(4000) + 1j * RNG.standard_normal(4000)).astype(np.complex64)
    blocks = _complex_order.mul(a[:4000], b[:4000])          # all in blocks of 8
    pairs = np.concatenate([_complex_order.mul(a[i:i + 2], b[i:i + 2])
                            for i in range(0, 4000, 2)])
    assert not np.array_equal(blocks, pairs)
    np.testing.assert_allclose(blocks, pairs, rtol=1e-6)
