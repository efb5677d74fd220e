"""The observation seam: every event kind in engine._events is emitted at the right moment,
and nothing is reported when no listener is installed."""
import pytest

import gradstep.engine as torch
from gradstep.engine import _events


class Log(_events.Listener):
    def __init__(self):
        self.events = []

    def __getattribute__(self, name):
        if name.startswith("on_"):
            return lambda *a, **k: object.__getattribute__(self, "events").append((name, a))
        return object.__getattribute__(self, name)


@pytest.fixture
def log():
    rec = Log()
    old = _events.set_listener(rec)
    yield rec
    _events.set_listener(old)


def kinds(log):
    return [k for k, _ in log.events]


def test_forward_events(log):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    assert kinds(log) == ["on_tensor", "on_op"]
    name, inputs, out, node = log.events[1][1]
    assert name == "mul" and inputs[0] is x and out is y and node is y.grad_fn
    with torch.no_grad():
        z = x + 1
    assert kinds(log)[2:] == ["on_grad_mode", "on_op", "on_grad_mode"]
    assert log.events[3][1][3] is None and z.grad_fn is None


def test_backward_events(log):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    log.events.clear()
    y.backward()
    ks = kinds(log)
    assert ks[0] == "on_backward_begin" and ks[-1] == "on_backward_end"
    assert ks.count("on_node_apply") == 2 and ks.count("on_accumulate") == 1
    assert "on_op" not in ks          # gradient arithmetic is internal to node_apply
    freed = next(a for k, a in log.events if k == "on_graph_freed")[0]
    assert all(n._freed for n in freed) and len(freed) == 2
    var, before, added, after = next(a for k, a in log.events if k == "on_accumulate")
    assert var is x and before is None and after.tolist() == [2.0, 4.0]


def test_grad_reset_inplace_and_warning_events(log):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * 2).sum().backward()
    log.events.clear()
    x.grad.zero_()
    x.grad = None
    assert [a[1] for k, a in log.events if k == "on_grad_reset"] == ["zero_", "none"]
    y = x * 1
    y.add_(1)
    inplace = [a[1:] for k, a in log.events if k == "on_inplace" and a[0] is y]
    assert inplace == [("add_", 1)]
    with pytest.warns(UserWarning):
        y.grad
    assert any(k == "on_warning" and a[0] == "UserWarning" for k, a in log.events)


def test_no_listener_means_no_calls():
    assert _events.listener is None
    x = torch.ones(2, requires_grad=True)
    (x * 2).sum().backward()        # would fail loudly if a call site ignored the guard
    assert x.grad.tolist() == [2.0, 2.0]
