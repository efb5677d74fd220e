"""Grad mode switches: context managers, decorators, nesting, and their effect on recording."""
import gradstep.engine as torch


def test_no_grad_records_nothing():
    x = torch.ones(2, requires_grad=True)
    with torch.no_grad():
        y = x * 2
        assert not torch.is_grad_enabled()
    assert torch.is_grad_enabled()
    assert y.grad_fn is None and not y.requires_grad


def test_decorators():
    x = torch.ones(2, requires_grad=True)

    @torch.no_grad()
    def f(t):
        return t * 2

    @torch.enable_grad()
    def g(t):
        return t * 2

    assert not f(x).requires_grad
    with torch.no_grad():
        assert g(x).requires_grad
    assert torch.is_grad_enabled()


def test_set_grad_enabled_as_function_and_context():
    x = torch.ones(2, requires_grad=True)
    torch.set_grad_enabled(False)
    try:
        assert not (x * 2).requires_grad
    finally:
        torch.set_grad_enabled(True)
    with torch.set_grad_enabled(False):
        assert not (x * 2).requires_grad
    assert (x * 2).requires_grad


def test_set_grad_enabled_decorator_does_not_change_mode_at_decoration():
    @torch.set_grad_enabled(False)
    def f(t):
        return t * 2

    assert torch.is_grad_enabled()
    assert not f(torch.ones(1, requires_grad=True)).requires_grad


def test_nesting_and_inference_mode():
    x = torch.ones(2, requires_grad=True)
    with torch.no_grad():
        with torch.enable_grad():
            assert (x * 2).requires_grad
        assert not (x * 2).requires_grad
    with torch.inference_mode():
        assert torch.is_inference_mode_enabled() and not (x * 2).requires_grad
    assert not torch.is_inference_mode_enabled()


def test_mode_restored_after_exception():
    try:
        with torch.no_grad():
            raise ValueError
    except ValueError:
        pass
    assert torch.is_grad_enabled()


def test_inplace_on_leaf_allowed_under_no_grad():
    w = torch.ones(2, requires_grad=True)
    with torch.no_grad():
        w -= 0.5 * torch.ones(2)
    assert w.tolist() == [0.5, 0.5] and w.is_leaf and w.requires_grad
