"""The Optimizer base: parameter groups, zero_grad, the step protocol, state_dict, events.

Messages and reprs are the text PyTorch 2.13 printed for the same calls (development venv).
"""
import warnings

import numpy as np
import pytest

import gradstep.engine as torch
from gradstep.engine import _events


def leaf(*values):
    return torch.tensor(list(values), requires_grad=True)


def test_groups_take_their_own_hyperparameters_and_fill_defaults():
    w, b = leaf(1.0, 2.0), leaf(0.0)
    opt = torch.optim.SGD([{"params": w}, {"params": [b], "lr": 1}], lr=0.1, momentum=0.5)
    assert [g["lr"] for g in opt.param_groups] == [0.1, 1]
    assert [g["momentum"] for g in opt.param_groups] == [0.5, 0.5]
    assert opt.param_groups[0]["params"] == [w]
    q = leaf(3.0)
    opt.add_param_group({"params": q, "lr": 0.5})
    assert len(opt.param_groups) == 3 and opt.param_groups[2]["params"][0] is q
    assert repr(opt).count("Parameter Group") == 3
    assert "\n\nParameter Group 1\n" in repr(opt)


def test_module_parameters_generator_is_accepted():
    model = torch.nn.Linear(2, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    assert len(opt.param_groups[0]["params"]) == 2


@pytest.mark.parametrize("params,kind,message", [
    ([], ValueError, "optimizer got an empty parameter list"),
    (torch.ones(2), TypeError, "params argument given to the optimizer should be an iterable "
                               "of Tensors or dicts, but got torch.FloatTensor"),
    ([torch.ones(2, requires_grad=True) * 2], ValueError, "can't optimize a non-leaf Tensor"),
])
def test_constructor_errors(params, kind, message):
    with pytest.raises(kind) as info:
        torch.optim.SGD(params, lr=0.1)
    assert str(info.value) == message


def test_overlapping_groups_and_duplicates():
    p = leaf(1.0)
    opt = torch.optim.SGD([p], lr=0.1)
    with pytest.raises(ValueError, match="^some parameters appear in more than one parameter "
                                         "group$"):
        opt.add_param_group({"params": [p]})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.optim.SGD([p, p], lr=0.1)
    assert str(caught[0].message).startswith("optimizer contains a parameter group with "
                                             "duplicate parameters; in future, this will cause "
                                             "an error")


def test_zero_grad_defaults_to_none_and_can_zero():
    p = leaf(1.0, 2.0)
    opt = torch.optim.SGD([p], lr=0.1)
    (p * p).sum().backward()
    opt.zero_grad(set_to_none=False)
    assert p.grad.tolist() == [0.0, 0.0]
    opt.zero_grad()
    assert p.grad is None


def test_step_writes_in_place_without_recording():
    p = leaf(1.0, 2.0)
    view = p[0:1]
    version = p._version
    opt = torch.optim.SGD([p], lr=0.5)
    (p * p).sum().backward()
    opt.step()
    assert p.tolist() == [0.0, 0.0] and view.tolist() == [0.0]
    assert p.is_leaf and p.grad_fn is None and p._version == version + 1
    assert torch.is_grad_enabled()


def test_closure_result_is_returned():
    p = leaf(2.0)
    opt = torch.optim.SGD([p], lr=0.25)

    def closure():
        opt.zero_grad()
        loss = (p * p).sum()
        loss.backward()
        return loss

    assert opt.step(closure).item() == 4.0
    assert p.tolist() == [1.0]


def test_listener_sees_the_step_and_the_resets():
    events = []

    class Watch(_events.Listener):
        def on_optimizer_step(self, optimizer, params, before, after):
            events.append(("step", type(optimizer).__name__, params, before, after))

        def on_grad_reset(self, tensor, how):
            events.append(("reset", tensor, how))

    p, q = leaf(1.0, 2.0), leaf(5.0)
    opt = torch.optim.SGD([p, q], lr=0.5)
    (p * p).sum().backward()          # q has no grad: not stepped, not reported
    old = _events.set_listener(Watch())
    try:
        opt.step()
        opt.zero_grad()
    finally:
        _events.set_listener(old)
    kind, name, params, before, after = events[0]
    assert (kind, name) == ("step", "SGD") and params == (p,)
    assert type(before[0]) is np.ndarray and before[0].tolist() == [1.0, 2.0]
    assert after[0].tolist() == [0.0, 0.0]
    assert events[1:] == [("reset", p, "none")]


def test_a_listener_that_takes_no_copies_gets_the_values_after_only():
    """NOTE [listener copies]: the step and the accumulation copy nothing for it, and the
    numbers are those a copying listener sees."""
    seen = {}

    class Watch(_events.Listener):
        def __init__(self, copies):
            self.copies = copies
            self.log = seen.setdefault(copies, [])

        def on_optimizer_update(self, optimizer, param, group, before, state_before, terms):
            self.log.append(("update", before, state_before, terms))

        def on_optimizer_step(self, optimizer, params, before, after):
            self.log.append(("step", before, [a.tolist() for a in after],
                             [a is p._data for a, p in zip(after, params)]))

        def on_accumulate(self, tensor, before, added, after):
            self.log.append(("accumulate", before is None, after.tolist()))

    for copies in (True, False):
        p = leaf(1.0, 2.0)
        opt = torch.optim.SGD([p], lr=0.5, momentum=0.9)
        old = _events.set_listener(Watch(copies))
        try:
            for _ in range(2):              # the second pass adds to a .grad that is there
                (p * p).sum().backward()
                opt.step()
        finally:
            _events.set_listener(old)
    full, light = seen[True], seen[False]
    assert [e[0] for e in full] == [e[0] for e in light]
    for a, b in zip(full, light):
        if a[0] == "update":
            assert a[1] is not None and a[3] and b[1:] == (None, None, None)
        elif a[0] == "step":
            assert a[2] == b[2]             # the same values after the step
            assert b[1] is None and b[3] == [True] and a[3] == [False]
        else:
            assert a[2] == b[2] and b[1]    # no copy of the .grad before for `light`
    assert [e[1] for e in full if e[0] == "accumulate"] == [True, False]


def test_state_dict_round_trip():
    p = leaf(1.0, -1.0)
    opt = torch.optim.SGD([p], lr=0.1, momentum=0.9)
    p.grad = torch.tensor([1.0, 1.0])
    opt.step()
    sd = opt.state_dict()
    assert list(sd) == ["state", "param_groups"]
    assert sd["param_groups"][0]["params"] == [0]
    assert list(sd["param_groups"][0])[-1] == "params"
    assert sd["state"][0]["momentum_buffer"].tolist() == [1.0, 1.0]
    q = leaf(1.0, -1.0)
    twin = torch.optim.SGD([q], lr=0.5)
    twin.load_state_dict(sd)
    assert twin.param_groups[0]["lr"] == 0.1 and twin.param_groups[0]["params"] == [q]
    assert twin.state[q]["momentum_buffer"].tolist() == [1.0, 1.0]
    assert twin.state[q]["momentum_buffer"] is not opt.state[p]["momentum_buffer"]


def test_one_event_per_step_across_groups():
    steps = []

    class Watch(_events.Listener):
        def on_optimizer_step(self, optimizer, params, before, after):
            steps.append(params)

    p, q = leaf(1.0), leaf(2.0)
    opt = torch.optim.SGD([{"params": [p]}, {"params": [q], "lr": 1.0}], lr=0.1)
    p.grad, q.grad = torch.tensor([1.0]), torch.tensor([1.0])
    old = _events.set_listener(Watch())
    try:
        opt.step()
    finally:
        _events.set_listener(old)
    assert steps == [(p, q)]
    assert p.tolist() == pytest.approx([0.9]) and q.tolist() == [1.0]
