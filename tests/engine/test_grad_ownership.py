"""Who owns a gradient buffer: the leaf's first `.grad` follows PyTorch's layout contract, is
kept without a copy only when nothing else can reach it, and the numpy fast paths of large
backwards give the same bits as the Tensor ops they stand for (NOTE [gradient layout
contract] in engine/ops/_broadcast.py). Expected layouts recorded from PyTorch 2.13."""
import numpy as np
import pytest

import gradstep.engine as torch
from gradstep.engine.autograd.walk import accumulate_grad
from gradstep.engine.optim.optimizer import fma
from gradstep.engine.tensor import new_tensor

N = 10_000          # above the size where a gradient may be kept instead of copied


def shares(a, b) -> bool:
    return np.shares_memory(a._data, b._data)


# ---- the layout contract (what PyTorch prints for is_contiguous) ----------------------------
def test_linear_weight_grad_is_contiguous_like_the_weight():
    lin = torch.nn.Linear(3, 2)
    lin(torch.randn(4, 3)).sum().backward()
    assert lin.weight.grad.is_contiguous()          # PyTorch: True


def test_column_major_leaf_gets_a_column_major_grad():
    w = torch.randn(3, 2).t().detach().requires_grad_()
    (w * 2).sum().backward()
    assert not w.grad.is_contiguous()               # PyTorch: False (the leaf's strides)


def test_transposed_incoming_gradient_is_stored_contiguous():
    b = torch.randn(3, 3, requires_grad=True)
    (b * 1).backward(torch.ones(3, 3).t())
    assert b.grad.is_contiguous()                   # PyTorch: True


def test_large_linear_weight_grad_is_contiguous_and_exact():
    torch.manual_seed(0)
    lin = torch.nn.Linear(128, 64)
    x = torch.randn(32, 128)
    lin(x).sum().backward()
    g = lin.weight.grad
    assert g.is_contiguous()
    want = np.ones((32, 64), np.float32).T @ x._data
    assert np.array_equal(g._data, want)


# ---- a gradient someone else can reach is copied ----------------------------------------------
def test_seed_passed_straight_to_a_leaf_is_copied():
    x = torch.rand(N, requires_grad=True)
    seed = torch.ones(N)
    x.backward(seed)
    assert not shares(x.grad, seed)


def test_one_gradient_sent_to_two_leaves_is_not_shared_between_them():
    x, y = torch.rand(N, requires_grad=True), torch.rand(N, requires_grad=True)
    ((x + y) * 2).sum().backward()
    assert not shares(x.grad, y.grad)
    ((x + y) * 2).sum().backward()                  # in-place accumulation stays separate
    assert x.grad.tolist()[:2] == [4.0, 4.0] and y.grad.tolist()[:2] == [4.0, 4.0]


def test_gradient_a_hook_keeps_is_copied():
    x, y = torch.rand(N, requires_grad=True), torch.rand(N, requires_grad=True)
    kept = []
    h = x + y
    h.register_hook(kept.append)
    (h * 3).sum().backward()
    assert not shares(x.grad, kept[0]) and not shares(y.grad, kept[0])


def test_retained_nonleaf_grad_and_leaf_grad_are_separate():
    x = torch.rand(N, requires_grad=True)
    h = x * 2
    h.retain_grad()
    k = h + 0.5
    (k * 3).sum().backward()
    assert not shares(x.grad, h.grad)


def test_leaf_hook_returning_a_held_tensor_is_copied():
    x = torch.rand(N, requires_grad=True)
    mine = torch.full((N,), 7.0)
    x.register_hook(lambda g: mine)
    (x * 2).sum().backward()
    assert not shares(x.grad, mine) and x.grad.tolist()[:1] == [7.0]


def test_custom_function_returning_a_saved_users_tensor_is_copied():
    w = torch.rand(N)

    class PassW(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, g):
            return w.detach()

    x = torch.rand(N, requires_grad=True)
    PassW.apply(x).sum().backward()
    assert not shares(x.grad, w)


def test_backward_with_inputs_stores_a_gradient_nobody_else_holds():
    x = torch.rand(N, requires_grad=True)
    h = x * 2
    (h * 3).sum().backward(inputs=[h])
    assert h._grad.tolist()[:1] == [3.0] and x.grad is None


# ---- the contract accumulate_grad offers the walk ---------------------------------------------
def test_walk_held_gradient_is_kept_without_a_copy():
    """The walk's buffer list as the one holder: the array becomes the leaf's .grad as is."""
    x = torch.rand(N, requires_grad=True)
    held = [new_tensor(np.ones(N, np.float32))]
    accumulate_grad(x, held[0], False)
    assert x.grad._data is held[0]._data


def test_gradient_with_a_second_holder_is_copied():
    x = torch.rand(N, requires_grad=True)
    held = [new_tensor(np.ones(N, np.float32))]
    other = held[0]
    accumulate_grad(x, held[0], False)
    assert not shares(x.grad, other)


def test_array_shared_by_two_tensors_is_copied():
    x = torch.rand(N, requires_grad=True)
    a = np.ones(N, np.float32)
    held, other = [new_tensor(a)], new_tensor(a)
    del a
    accumulate_grad(x, held[0], False)
    assert not shares(x.grad, other)


def _transposed_twice(root):
    """A view of `root` made as TBackward hands a weight its gradient (t() with no graph)."""
    with torch.no_grad():
        return root.t()


def test_view_whose_root_only_the_view_holds_is_kept():
    """A Linear weight's gradient arrives as t() of the product's transposed result; nothing
    but that view reaches the root, so the array is kept as PyTorch keeps it (no copy)."""
    x = torch.rand(100, 100, requires_grad=True)
    held = [_transposed_twice(new_tensor(np.ones((100, 100), np.float32).T))]
    accumulate_grad(x, held[0], False)
    assert x.grad._data is held[0]._data and x.grad._base is None


def test_view_whose_root_is_held_elsewhere_is_copied():
    x = torch.rand(100, 100, requires_grad=True)
    root = new_tensor(np.ones((100, 100), np.float32).T)
    held = [_transposed_twice(root)]
    accumulate_grad(x, held[0], False)
    assert not shares(x.grad, root)


def test_large_linear_weight_gradient_is_kept_and_not_a_view():
    torch.manual_seed(0)
    lin = torch.nn.Linear(128, 64)
    x = torch.randn(32, 128)
    lin(x).sum().backward()
    g = lin.weight.grad
    assert g._base is None and g.is_contiguous() and g._data.base is not None   # kept
    g_before = g._data.copy()
    lin(x).sum().backward()                          # accumulates in place into the kept array
    assert np.array_equal(lin.weight.grad._data, g_before * 2)


# ---- numpy fast paths give the Tensor ops' bits, and create_graph still works ----------------
@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph")
@pytest.mark.parametrize("fn", ["tanh", "sin"])
def test_large_backward_matches_the_recorded_backward_bit_for_bit(fn):
    torch.manual_seed(1)
    x = (torch.randn(N) * 2).requires_grad_()
    getattr(x, fn)().pow(2).sum().backward()
    plain = x.grad._data.copy()
    x.grad = None
    getattr(x, fn)().pow(2).sum().backward(create_graph=True)
    assert np.array_equal(plain, x.grad._data)


def test_second_derivative_through_a_large_tanh():
    x = torch.full((N,), 0.5, requires_grad=True)
    (g,) = torch.autograd.grad(x.tanh().sum(), x, create_graph=True)
    g.sum().backward()
    t = np.tanh(np.float32(0.5))
    assert x.grad._data[0] == pytest.approx(-2 * t * (1 - t * t), rel=1e-5)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_fma_into_out_is_the_same_as_the_returned_array(dtype):
    rng = np.random.default_rng(0)
    a = (rng.standard_normal(N) * 10.0 ** rng.integers(-6, 3, N)).astype(dtype)
    b = (rng.standard_normal(N) * 10.0 ** rng.integers(-6, 3, N)).astype(dtype)
    want = fma(a, -0.01, b)
    fma(a, -0.01, b, out=a)
    assert np.array_equal(a.view(np.uint8), want.view(np.uint8))


def test_second_derivative_through_linear_matches_the_matmul_route():
    """Addmm's column-major weight path (and its numpy shortcut) against x @ w.t() + b."""
    torch.manual_seed(2)
    x = torch.randn(5, 4, dtype=torch.float64)
    b = torch.randn(3, dtype=torch.float64)
    grads = []
    for route in (lambda w: torch.nn.functional.linear(x, w, b), lambda w: x @ w.t() + b):
        w = torch.randn(3, 4, dtype=torch.float64, generator=torch.Generator().manual_seed(3))
        w.requires_grad_()
        (gw,) = torch.autograd.grad((route(w) ** 3).sum(), w, create_graph=True)
        (gw * gw).sum().backward()
        plain = torch.randn(3, 4, dtype=torch.float64, generator=torch.Generator().manual_seed(3))
        plain.requires_grad_()
        (route(plain) ** 3).sum().backward()
        assert np.allclose(plain.grad._data, gw.detach()._data, rtol=1e-12)
        grads.append(w.grad._data.copy())
    assert np.allclose(grads[0], grads[1], rtol=1e-10)
