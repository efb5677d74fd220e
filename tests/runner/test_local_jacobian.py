"""The chain rule's local Jacobian takes shortcuts for elementwise nodes, views that move
elements and matrix products; each must give the numbers of one backward per unit vector.

`local_jacobian` (runner/local_jacobian.py) runs a node's backward on every one-hot gradient;
for some nodes it gets the same rows from one to three backward calls or from the saved
matrices. Each case here computes J both ways on a live node and compares the numbers
exactly (nan and the order of the pairs included), and checks that the shortcut really ran
(no one-hot row was computed) where it should, or stood aside where it must.
"""
from __future__ import annotations

import math

import pytest

import gradstep.engine as torch
from gradstep.runner import local_jacobian as LJ

ROWS, CAP = 16, 64


def _exact(cols) -> str:
    # repr keeps nan, inf and every digit; -0.0 never appears (zeros are left out)
    return repr(cols)


def _one_hot_only(node, g, outs):
    saved = LJ._shortcut
    LJ._shortcut = lambda *a: None
    try:
        return LJ.local_jacobian(node, g, outs, ROWS, CAP)
    finally:
        LJ._shortcut = saved


def _shortcut_only(node, g, outs):
    saved = LJ._one_hot_rows

    def refuse(*a):
        raise AssertionError("the one-hot rows ran")
    LJ._one_hot_rows = refuse
    try:
        return LJ.local_jacobian(node, g, outs, ROWS, CAP)
    finally:
        LJ._one_hot_rows = saved


def _grads_like(*ts):
    return tuple(None if t is None else torch.ones_like(t) for t in ts)


def _check(y, inputs, shortcut=True):
    """J of y's node both ways: the same numbers; the shortcut alone when `shortcut`."""
    g = torch.ones_like(y)
    outs = _grads_like(*inputs)
    slow = _one_hot_only(y.grad_fn, g, outs)
    assert slow is not None and any(c is not None for c in slow)
    if shortcut:
        fast = _shortcut_only(y.grad_fn, g, outs)
    else:   # the shortcut must decline: its numbers would not be the rows'
        assert LJ._shortcut(y.grad_fn, g._data, [None if o is None else o.numel()
                                                 for o in outs]) is None
        fast = LJ.local_jacobian(y.grad_fn, g, outs, ROWS, CAP)
    assert _exact(fast) == _exact(slow)
    return slow


def _leaf(values, dtype=torch.float32):
    return torch.tensor(values, dtype=dtype, requires_grad=True)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_linear_layer_is_its_saved_matrices(dtype):
    torch.manual_seed(0)
    x = torch.randn(5, 3, dtype=dtype, requires_grad=True)
    w = torch.randn(2, 3, dtype=dtype, requires_grad=True)
    b = torch.randn(2, dtype=dtype, requires_grad=True)
    y = torch.nn.functional.linear(x, w, b)
    assert type(y.grad_fn).__name__ == "AddmmBackward0"
    cols = _check(y, (b, x, w.t()))
    # d y[0, 1] / d bias[1] is 1; d y[r, c] / d x[r, k] is w[c, k]
    assert cols[0][1][0] == [1, 1.0]
    wd = w.detach()
    assert cols[1][1] == [[0, float(wd[0, 1])], [1, float(wd[1, 1])]]


@pytest.mark.parametrize("bias_shape", [(1,), (4, 1), (), (4, 3), (3,)])
def test_addmm_biases_broadcast_or_not(bias_shape):
    torch.manual_seed(1)
    b = torch.randn(*bias_shape, requires_grad=True)
    m1, m2 = torch.randn(4, 2, requires_grad=True), torch.randn(2, 3, requires_grad=True)
    _check(torch.addmm(b, m1, m2), (b, m1, m2))


def test_addmm_without_some_gradients():
    torch.manual_seed(2)
    b, m1 = torch.randn(3), torch.randn(4, 2)
    m2 = torch.randn(2, 3, requires_grad=True)
    _check(torch.addmm(b, m1, m2), (None, None, m2))


def test_addmm_scaled_and_nonfinite_take_the_rows():
    torch.manual_seed(3)
    b, m1, m2 = torch.randn(3), torch.randn(4, 2), torch.randn(2, 3)
    for t in (b, m1, m2):
        t.requires_grad_()
    _check(torch.addmm(b, m1, m2, beta=0.5, alpha=2.0), (b, m1, m2), shortcut=False)
    bad = m1.detach().clone()
    bad[1, 0] = math.inf     # 0 * inf in the other rows is nan: the rows say where
    bad.requires_grad_()
    cols = _check(torch.addmm(b, bad, m2), (b, bad, m2), shortcut=False)
    assert any(math.isnan(v) for col in cols[2] for _, v in col)


def test_mm_is_its_saved_matrices():
    torch.manual_seed(4)
    a, b = torch.randn(3, 4, requires_grad=True), torch.randn(4, 2, requires_grad=True)
    y = a @ b
    assert type(y.grad_fn).__name__ == "MmBackward0"
    _check(y, (a, b))


@pytest.mark.parametrize("make", [
    lambda x: x.relu(), lambda x: x.tanh(), lambda x: x.sigmoid(), lambda x: x.exp(),
    lambda x: x ** 2, lambda x: x ** 0, lambda x: x ** 0.5, lambda x: x.log(),
    lambda x: x.abs(), lambda x: torch.nn.functional.leaky_relu(x, 0.1), lambda x: 1 / x,
], ids=["relu", "tanh", "sigmoid", "exp", "square", "pow0", "sqrt_neg", "log_zero", "abs",
        "leaky", "reciprocal"])
def test_elementwise_unary(make):
    x = _leaf([[-1.5, 0.0, 2.0], [0.25, -0.0, 3.0]])
    _check(make(x), (x,))


@pytest.mark.parametrize("op", ["add", "sub", "mul", "div"])
def test_elementwise_binary_same_shape(op):
    x = _leaf([1.0, -2.0, 0.5, 4.0])
    w = _leaf([3.0, math.inf, -1.0, 0.0])   # inf and 0: the rows' nan off the diagonal
    y = getattr(x, op)(w)
    cols = _check(y, (x, w))
    if op == "mul":     # d (x * w)[i] / d x[1] is w[1] = inf on the diagonal, nan elsewhere
        assert _exact(cols[0][1]) == _exact([[0, math.nan], [1, math.inf], [2, math.nan],
                                             [3, math.nan]])


@pytest.mark.parametrize("op", ["add", "sub", "mul"])
@pytest.mark.parametrize("shapes", [((4,), (4,)), ((2, 3), (3,)), ((2, 3), ()), ((2, 1), (1, 3)),
                                    ((), (5,))])
def test_add_sub_mul_broadcast_or_not(op, shapes):
    torch.manual_seed(5)
    x = torch.randn(*shapes[0], requires_grad=True)
    w = torch.randn(*shapes[1], requires_grad=True)
    _check(getattr(x, op)(w), (x, w))


def test_mul_by_a_constant_and_a_scaled_add():
    torch.manual_seed(6)
    x, c = torch.randn(2, 3, requires_grad=True), torch.randn(3)
    _check(x * c, (x, None))
    _check(c * x, (None, x))
    w = torch.randn(3, requires_grad=True)
    _check(torch.add(x, w, alpha=2.0), (x, w), shortcut=False)


def test_div_broadcast_takes_the_rows():
    x = _leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    w = _leaf([2.0, -1.0, 0.5])
    _check(x / w, (x, w), shortcut=False)


def test_same_tensor_twice():
    x = _leaf([1.0, 2.0, -3.0])
    _check(x * x, (x, x))


@pytest.mark.parametrize("make", [
    lambda x: x.t(), lambda x: x.transpose(0, 1), lambda x: x.permute(1, 0),
    lambda x: x.view(6), lambda x: x.unsqueeze(0), lambda x: x[1], lambda x: x[:, 1:],
    lambda x: x.reshape(3, 2),
], ids=["t", "transpose", "permute", "view", "unsqueeze", "select", "slice", "reshape"])
def test_views_that_move_elements(make):
    x = _leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    _check(make(x), (x,))


def test_expand_sums_so_takes_the_rows():
    x = _leaf([[1.0], [2.0]])
    _check(x.expand(2, 3), (x,), shortcut=False)


def test_a_custom_functions_backward_is_never_run_again():
    ran = []

    class Twice(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            ran.append(1)      # the program's code: what it collects must not change
            return g * 2

    x = _leaf([1.0, 2.0, 3.0])
    y = Twice.apply(x)
    assert LJ.runs_program_code(y.grad_fn)
    assert LJ.local_jacobian(y.grad_fn, torch.ones(3), (torch.ones(3),), ROWS, CAP) is None
    assert ran == []


@pytest.mark.parametrize("make", [
    lambda x, w: (torch.nn.functional.linear(x, w), (x, w.t())),
    lambda x, w: (x * w.sum(), (x, w.sum())),
    lambda x, w: (x.tanh(), (x,)),
    lambda x, w: (x.t(), (x,)),
], ids=["mm", "mul", "tanh", "t"])
def test_a_freed_node_has_no_local_jacobian(make):
    torch.manual_seed(7)
    x, w = torch.randn(3, 2, requires_grad=True), torch.randn(4, 2, requires_grad=True)
    y, inputs = make(x, w)
    y.sum().backward()      # frees the saved tensors: the backward refuses to run again
    cols = LJ.local_jacobian(y.grad_fn, torch.ones_like(y), _grads_like(*inputs), ROWS, CAP)
    if type(y.grad_fn).__name__ == "TBackward0":
        assert cols is not None     # a view saves nothing: nothing was freed
    else:
        assert cols is None


@pytest.mark.parametrize("make, shortcut", [
    (lambda x: x * 2.5, True), (lambda x: 3 * x, True), (lambda x: x + 1.5, True),
    (lambda x: x * torch.tensor(2), True), (lambda x: 1.0 - x, False),   # RsubBackward1
], ids=["times", "rtimes", "plus", "int_tensor", "rminus"])
def test_python_numbers_and_wrapped_constants(make, shortcut):
    x = _leaf([[1.0, -2.0, 0.5], [4.0, 0.0, -0.25]])
    y = make(x)
    _check(y, (x,) + (None,) * (len(y.grad_fn.next_functions) - 1), shortcut)


def test_an_unpack_hook_is_never_run_again():
    unpacked = []

    def unpack(t):
        unpacked.append(1)
        return t

    x = _leaf([0.5, 1.0, 2.0, 4.0])
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, unpack):
        y = x.exp()
    assert LJ.runs_program_code(y.grad_fn)
    assert LJ.local_jacobian(y.grad_fn, torch.ones(4), (torch.ones(4),), ROWS, CAP) is None
    assert unpacked == []
    assert not LJ.runs_program_code(x.exp().grad_fn)     # outside the hooks: the engine's
