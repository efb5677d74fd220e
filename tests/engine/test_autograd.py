"""The backward walk: accumulation, hooks, retain_grad, inputs=, autograd.grad, custom
Functions, freeing and version counters, and PyTorch's error texts (recorded from 2.13)."""
import inspect
import sys

import pytest

import gradstep.engine as torch
from gradstep.engine import messages


def test_backward_signature_is_pytorchs():
    assert list(inspect.signature(torch.Tensor.backward).parameters) == [
        "self", "gradient", "retain_graph", "create_graph", "inputs"]


def test_chain_rule_and_accumulation():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (x * x).sum().backward()
    assert x.grad.tolist() == [2.0, 4.0, 6.0]
    (x * 3).sum().backward()
    assert x.grad.tolist() == [5.0, 7.0, 9.0]


def test_grad_is_accumulated_in_place_into_the_same_tensor():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * 2).sum().backward()
    first = x.grad
    (x * 2).sum().backward()
    assert x.grad is first and first.tolist() == [4.0, 4.0]


def test_shared_gradient_is_copied_per_leaf():
    a = torch.tensor([1.0], requires_grad=True)
    b = torch.tensor([1.0], requires_grad=True)
    (a + b).sum().backward()
    assert a.grad is not b.grad
    (a + b).sum().backward()
    assert a.grad.tolist() == [2.0] and b.grad.tolist() == [2.0]


def test_vector_jacobian_product():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * x).backward(torch.tensor([1.0, 0.5]))
    assert x.grad.tolist() == [2.0, 2.0]


def test_autograd_backward_with_grad_tensors():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    torch.autograd.backward(y, grad_tensors=torch.tensor([0.5, 0.25]))
    assert x.grad.tolist() == [1.0, 1.0]


def test_errors_in_pytorchs_words():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="^grad can be implicitly created only for scalar"):
        (x * 2).backward()
    with pytest.raises(RuntimeError, match="^element 0 of tensors does not require grad and "
                                           "does not have a grad_fn$"):
        torch.ones(2).sum().backward()
    with pytest.raises(RuntimeError, match=r"Mismatch in shape: grad_output\[0\]"):
        (x * 2).backward(torch.ones(3))


def test_second_backward_through_freed_graph_raises():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    with pytest.raises(RuntimeError) as e:
        y.backward()
    assert str(e.value) == messages.BACKWARD_TWICE
    with pytest.raises(RuntimeError):
        y.grad_fn.next_functions[0][0]._saved_self


def test_retain_graph_allows_repeated_backward():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp().sum()
    y.backward(retain_graph=True)
    y.backward()
    assert [round(v, 4) for v in x.grad.tolist()] == [5.4366, 14.7781]


def test_nodes_without_saved_tensors_can_be_walked_twice():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    z = (x + 1).sum()
    z.backward()
    z.backward()
    assert x.grad.tolist() == [2.0, 2.0]


def test_version_counter_error_names_the_op():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    s = x.sigmoid()
    s.mul_(2)
    with pytest.raises(RuntimeError) as e:
        s.sum().backward()
    assert ("[torch.FloatTensor [3]], which is output 0 of Sigmoid, is at version 1; "
            "expected version 0 instead. Hint:") in str(e.value)


def test_version_error_for_a_modified_leaf_has_no_which_clause():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    z = y * y
    with torch.no_grad():
        x.add_(1)
    z.sum().backward()     # x itself was not saved, so this works
    leaf = torch.tensor([1.0, 2.0], requires_grad=True)
    p = leaf * leaf
    with torch.no_grad():
        leaf.mul_(2)
    with pytest.raises(RuntimeError, match=r"\[torch.FloatTensor \[2\]\] is at version 1"):
        p.sum().backward()


def test_data_bypasses_the_version_counter_but_detach_does_not():
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    out = a.sigmoid()
    out.data.zero_()
    out.sum().backward()
    assert a.grad.tolist() == [0.0, 0.0, 0.0]
    b = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    out = b.sigmoid()
    out.detach().zero_()
    with pytest.raises(RuntimeError, match="output 0 of Sigmoid"):
        out.sum().backward()


def test_hooks_and_retain_grad():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.retain_grad()
    seen = []
    y.register_hook(lambda g: seen.append(g.tolist()) or g * 10)
    (y ** 2).sum().backward()
    assert seen == [[4.0, 8.0]]
    assert y.grad.tolist() == [40.0, 80.0]
    assert x.grad.tolist() == [80.0, 160.0]
    handle = x.register_hook(lambda g: g * 0)
    (x * 1).sum().backward()
    assert x.grad.tolist() == [80.0, 160.0]
    handle.remove()
    (x * 1).sum().backward()
    assert x.grad.tolist() == [81.0, 161.0]


def test_backward_inputs_restricts_accumulation():
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    v = torch.tensor([3.0], requires_grad=True)
    ((w * w).sum() + (v * 2).sum()).backward(inputs=[w])
    assert w.grad.tolist() == [2.0, 4.0] and v.grad is None


def test_autograd_grad_returns_without_accumulating():
    x = torch.tensor(3.0, requires_grad=True)
    (g,) = torch.autograd.grad(x ** 2, x)
    assert g.item() == 6.0 and x.grad is None and g.grad_fn is None


def test_autograd_grad_unused_and_non_requiring_inputs():
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    other = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="^The differentiated Tensor at index 1 appears"):
        torch.autograd.grad((w * 2).sum(), [w, other])
    with pytest.raises(RuntimeError, match="does not require grad"):
        torch.autograd.grad((w * 2).sum(), [w, torch.ones(2)])
    g = torch.autograd.grad((w * 2).sum(), [w, other], allow_unused=True)
    assert g[0].tolist() == [2.0, 2.0] and g[1] is None


def test_higher_order_through_create_graph():
    x = torch.tensor(2.0, requires_grad=True)
    y = x ** 3 - 4 * x
    (d1,) = torch.autograd.grad(y, x, create_graph=True)
    (d2,) = torch.autograd.grad(d1, x, create_graph=True)
    (d3,) = torch.autograd.grad(d2, x, create_graph=True)
    (d4,) = torch.autograd.grad(d3, x, allow_unused=True)
    assert (d1.item(), d2.item(), d3.item(), d4.item()) == (8.0, 12.0, 6.0, 0.0)
    assert type(d1.grad_fn).__name__ == "AddBackward0"
    assert type(d2.grad_fn).__name__ == "MulBackward0"


def test_create_graph_backward_warns_about_the_cycle():
    x = torch.tensor([1.0], requires_grad=True)
    with pytest.warns(UserWarning, match="Using backward\\(\\) with create_graph=True"):
        (x * x).sum().backward(create_graph=True)
    assert x.grad.requires_grad


def test_custom_function():
    class Cube(torch.autograd.Function):
        @staticmethod
        def forward(ctx, t, k):
            ctx.save_for_backward(t)
            ctx.k = k
            return t * t * t * k

        @staticmethod
        def backward(ctx, g):
            (t,) = ctx.saved_tensors
            assert ctx.needs_input_grad == (True, False)
            return g * 3 * t * t * ctx.k, None

    w = torch.tensor([1.0, 2.0], requires_grad=True)
    out = Cube.apply(w, 2.0)
    assert type(out.grad_fn).__name__ == "CubeBackward"
    assert len(out.grad_fn.next_functions) == 1
    out.sum().backward()
    assert w.grad.tolist() == [6.0, 24.0]
    with pytest.raises(RuntimeError, match="^Trying to backward through the graph"):
        out.grad_fn.saved_tensors


def test_variable_is_a_tensor():
    from gradstep.engine.autograd import Variable
    v = Variable(torch.ones(2), requires_grad=True)
    assert isinstance(v, Variable) and isinstance(v, torch.Tensor) and v.requires_grad


def test_long_chain_does_not_recurse():
    x = torch.tensor([1.0], requires_grad=True)
    y = x
    for _ in range(sys.getrecursionlimit() * 3):
        y = y * 1.0
    y.sum().backward()
    assert x.grad.tolist() == [1.0]


def test_next_functions_walk_matches_pytorch():
    w = torch.tensor([[0.5, -1.0], [2.0, 0.0]], requires_grad=True)
    b = torch.tensor([0.1, 0.2], requires_grad=True)
    loss = (torch.relu(w @ torch.tensor([1.0, 2.0]) + b) - 1).pow(2).mean()
    names = []
    stack = [(loss.grad_fn, 0)]
    while stack:
        fn, depth = stack.pop()
        names.append((depth, type(fn).__name__ if fn else None))
        stack.extend((n, depth + 1) for n, _ in reversed(fn.next_functions) if fn) if fn else None
    assert [n for _, n in names] == [
        "MeanBackward0", "PowBackward0", "SubBackward0", "ReluBackward0", "AddBackward0",
        "MvBackward0", "AccumulateGrad", None, "AccumulateGrad", None]
    assert loss.grad_fn.next_functions[0][0].next_functions[0][0].name() == "SubBackward0"


def test_custom_function_with_a_non_differentiable_output():
    class Sort2(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            v, i = x.sort()
            ctx.mark_non_differentiable(i)
            ctx.save_for_backward(i)
            return v, i

        @staticmethod
        def backward(ctx, gv, gi):
            (i,) = ctx.saved_tensors
            g = torch.zeros_like(gv)
            g[i] = gv
            return g

    x = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
    v, i = Sort2.apply(x)
    assert v.requires_grad and not i.requires_grad and i.grad_fn is None
    assert type(v.grad_fn).__name__ == "Sort2Backward"
    (v * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
    assert x.grad.tolist() == [100.0, 1.0, 10.0]
