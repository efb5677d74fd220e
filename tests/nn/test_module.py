"""nn.Module and nn.Parameter: registration, traversal, modes, state_dict and PyTorch's reprs.

Expected reprs and messages are the text PyTorch 2.13 printed for the same code (checked in
the development-only torch venv).
"""
import copy

import pytest

import gradstep.engine as torch
from gradstep.engine import _events, nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(2, 3)
        self.act = nn.ReLU()
        self.seq = nn.Sequential(nn.Linear(3, 3), nn.ReLU())

    def forward(self, x):
        return self.seq(self.act(self.fc1(x)))


def test_parameters_are_registered_in_assignment_order():
    net = Net()
    assert [n for n, _ in net.named_parameters()] == [
        "fc1.weight", "fc1.bias", "seq.0.weight", "seq.0.bias"]
    assert [p.shape for p in net.parameters()] == [(3, 2), (3,), (3, 3), (3,)]
    assert all(isinstance(p, nn.Parameter) and p.requires_grad for p in net.parameters())
    assert [n for n, _ in net.named_children()] == ["fc1", "act", "seq"]
    assert [n for n, _ in net.named_modules()] == ["", "fc1", "act", "seq", "seq.0", "seq.1"]
    assert list(net.parameters(recurse=False)) == []


def test_shared_parameters_are_listed_once():
    shared = nn.Linear(2, 2)
    seq = nn.Sequential(shared, shared)
    assert len(list(seq.parameters())) == 2
    assert [n for n, _ in seq.named_modules()] == ["", "0"]


def test_call_runs_forward_and_records_the_graph():
    net = Net()
    y = net(torch.ones(4, 2))
    assert y.shape == (4, 3) and type(y.grad_fn).__name__ == "ReluBackward0"
    y.sum().backward()
    assert net.fc1.weight.grad.shape == (3, 2)


def test_zero_grad_sets_to_none_by_default_and_can_zero():
    fc = nn.Linear(2, 1)
    fc(torch.ones(3, 2)).sum().backward()
    assert fc.weight.grad.tolist() == [[3.0, 3.0]]
    fc.zero_grad()
    assert fc.weight.grad is None and fc.bias.grad is None
    fc(torch.ones(3, 2)).sum().backward()
    fc.zero_grad(set_to_none=False)
    assert fc.weight.grad.tolist() == [[0.0, 0.0]]


def test_zero_grad_reports_each_reset_to_the_listener():
    seen = []

    class Watch(_events.Listener):
        def on_grad_reset(self, tensor, how):
            seen.append((tensor, how, tensor._grad))

    fc = nn.Linear(2, 1)
    fc(torch.ones(1, 2)).sum().backward()
    old = _events.set_listener(Watch())
    try:
        fc.zero_grad(set_to_none=False)
        fc.zero_grad()
        fc.zero_grad()      # nothing left to reset: no events
    finally:
        _events.set_listener(old)
    assert [(t is fc.weight, how) for t, how, _ in seen[:1]] == [(True, "zero_")]
    assert [how for _, how, _ in seen] == ["zero_", "zero_", "none", "none"]
    assert seen[0][2].tolist() == [[0.0, 0.0]] and seen[2][2] is None


def test_train_and_eval_flip_every_submodule():
    net = Net()
    assert net.training and net.seq[0].training
    assert net.eval() is net
    assert not net.training and not net.seq[1].training
    net.train()
    assert all(m.training for m in net.modules())


def test_state_dict_is_detached_and_load_state_dict_copies():
    src, dst = nn.Linear(2, 1), nn.Linear(2, 1)
    sd = src.state_dict()
    assert list(sd) == ["weight", "bias"]
    assert type(sd).__name__ == "OrderedDict"
    assert not sd["weight"].requires_grad and type(sd["weight"]) is torch.Tensor
    assert repr(dst.load_state_dict(sd)) == "<All keys matched successfully>"
    assert dst.weight.tolist() == src.weight.tolist()
    assert dst.weight.requires_grad and dst.weight.is_leaf
    result = dst.load_state_dict({"weight": torch.ones(1, 2)}, strict=False)
    assert repr(result) == "_IncompatibleKeys(missing_keys=['bias'], unexpected_keys=[])"
    assert [n for n in Net().state_dict()] == ["fc1.weight", "fc1.bias", "seq.0.weight",
                                               "seq.0.bias"]


@pytest.mark.parametrize("state,message", [
    ({"weight": torch.ones(1, 2)},
     'Error(s) in loading state_dict for Linear:\n\tMissing key(s) in state_dict: "bias". '),
    ({"weight": torch.ones(1, 2), "bias": torch.ones(1), "extra": torch.ones(1)},
     'Error(s) in loading state_dict for Linear:\n\tUnexpected key(s) in state_dict: "extra". '),
    ({"weight": torch.ones(2, 2), "bias": torch.ones(1)},
     "Error(s) in loading state_dict for Linear:\n\tsize mismatch for weight: copying a param "
     "with shape torch.Size([2, 2]) from checkpoint, the shape in current model is "
     "torch.Size([1, 2])."),
])
def test_load_state_dict_errors(state, message):
    with pytest.raises(RuntimeError) as info:
        nn.Linear(2, 1).load_state_dict(state)
    assert str(info.value) == message


def test_reprs_match_pytorch():
    assert repr(Net()) == (
        "Net(\n"
        "  (fc1): Linear(in_features=2, out_features=3, bias=True)\n"
        "  (act): ReLU()\n"
        "  (seq): Sequential(\n"
        "    (0): Linear(in_features=3, out_features=3, bias=True)\n"
        "    (1): ReLU()\n"
        "  )\n"
        ")")
    assert repr(nn.Module()) == "Module()"
    assert repr(nn.Sequential()) == "Sequential()"
    assert repr(nn.Linear(3, 2, bias=False)) == "Linear(in_features=3, out_features=2, bias=False)"


def test_parameter_prints_and_behaves_as_pytorchs():
    p = nn.Parameter(torch.ones(2))
    assert repr(p) == str(p) == "Parameter containing:\ntensor([1., 1.], requires_grad=True)"
    assert repr(nn.Parameter(torch.ones(2), requires_grad=False)) == (
        "Parameter containing:\ntensor([1., 1.])")
    assert repr(nn.Parameter()) == "Parameter containing:\ntensor([], requires_grad=True)"
    assert type(p).__name__ == "Parameter" and p.is_leaf and isinstance(p, torch.Tensor)
    assert repr(p * 2) == "tensor([2., 2.], grad_fn=<MulBackward0>)"
    with pytest.raises(RuntimeError, match="^Only Tensors of floating point and complex dtype "
                                           "can require gradients$"):
        nn.Parameter(torch.ones(2, dtype=torch.long))


def test_parameter_shares_storage_with_its_data():
    t = torch.zeros(2)
    p = nn.Parameter(t)
    t.add_(1.0)
    assert p.tolist() == [1.0, 1.0]


def test_saved_parameters_are_checked_for_in_place_changes():
    fc = nn.Linear(2, 1)
    y = (fc.weight ** 2).sum()     # PowBackward0 saves the weight itself
    with torch.no_grad():
        fc.weight.add_(1.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.backward()


@pytest.mark.parametrize("make,kind,message", [
    (lambda m: setattr(m, "weight", torch.ones(1, 2)), TypeError,
     "cannot assign 'torch.FloatTensor' as parameter 'weight' (torch.nn.Parameter or None "
     "expected)"),
    (lambda m: m.foo, AttributeError, "'Linear' object has no attribute 'foo'"),
])
def test_attribute_errors(make, kind, message):
    with pytest.raises(kind) as info:
        make(nn.Linear(2, 1))
    assert str(info.value) == message


def test_assigning_before_init_and_missing_forward():
    class Early(nn.Module):
        def __init__(self):
            self.w = nn.Parameter(torch.ones(1))

    class NoForward(nn.Module):
        pass

    with pytest.raises(AttributeError, match=r"^cannot assign parameters before "
                                             r"Module.__init__\(\) call$"):
        Early()
    with pytest.raises(NotImplementedError) as info:
        NoForward()(torch.ones(1))
    assert str(info.value) == 'Module [NoForward] is missing the required "forward" function'


def test_buffers_and_none_parameters():
    m = nn.Linear(2, 1, bias=False)
    assert m.bias is None and [n for n, _ in m.named_parameters()] == ["weight"]
    m.register_buffer("running", torch.zeros(1))
    m.register_buffer("scratch", torch.zeros(1), persistent=False)
    assert list(m.state_dict()) == ["weight", "running"]
    assert [n for n, _ in m.named_buffers()] == ["running", "scratch"]
    m.weight = None
    assert list(m.parameters()) == []


def test_deepcopy_gives_independent_parameters():
    fc = nn.Linear(2, 1)
    twin = copy.deepcopy(fc)
    assert twin.weight.tolist() == fc.weight.tolist()
    with torch.no_grad():
        twin.weight.fill_(5.0)
    assert fc.weight.tolist() != [[5.0, 5.0]]
    assert isinstance(twin.weight, nn.Parameter) and twin.weight._uid != fc.weight._uid


def test_dtype_conversion_keeps_the_parameter_objects():
    fc = nn.Linear(2, 1)
    w = fc.weight
    fc.double()
    assert fc.weight is w and w.dtype == torch.float64
    assert fc(torch.ones(1, 2, dtype=torch.float64)).dtype == torch.float64


def test_requires_grad_and_apply():
    net = Net()
    net.requires_grad_(False)
    assert not any(p.requires_grad for p in net.parameters())
    names = []
    net.apply(lambda m: names.append(type(m).__name__))
    assert names[-1] == "Net" and names.count("Linear") == 2


def test_forward_hooks_see_and_may_replace_inputs_and_outputs():
    fc = nn.Linear(2, 1)
    seen = []
    pre = fc.register_forward_pre_hook(lambda m, args: (args[0] * 0,))
    post = fc.register_forward_hook(lambda m, args, out: seen.append(out.shape) or out + 100)
    y = fc(torch.ones(3, 2))
    assert seen == [(3, 1)]
    assert y.flatten().tolist() == pytest.approx([fc.bias.item() + 100] * 3)   # float32 sum
    pre.remove()
    post.remove()
    assert fc(torch.zeros(1, 2)).item() == fc.bias.item()
