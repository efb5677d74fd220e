"""The tracer never runs the program's own backward code a second time.

J (the v·J panel) and the local rows of the chain rule are computed by running backward
again. Where that backward is the program's code (a custom `autograd.Function`'s backward,
a `saved_tensors_hooks` unpack, the function `torch.utils.checkpoint` reruns), running it
again would repeat what it prints and collects: the traced run's output would no longer be
PyTorch's. The expected outputs below are what PyTorch 2.13 prints for these programs.
"""
from __future__ import annotations

from gradstep.runner import run_program

FUNCTION = """\
import torch
calls = []
class Sq(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    def backward(ctx, g):
        print("backward runs")
        calls.append(1)
        x, = ctx.saved_tensors
        return 2 * x * g
a = torch.tensor([1.0, 2.0], requires_grad=True)
(Sq.apply(a) * 3).sum().backward()
print(a.grad, len(calls))
"""

UNPACK = """\
import torch
log = []
def pack(t):
    return t.clone()
def unpack(t):
    print("unpack", t.shape)
    log.append("u")
    return t
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = (a * a).sin()
y.sum().backward()
print(a.grad, len(log))
"""

CHECKPOINT = """\
import torch
from torch.utils.checkpoint import checkpoint
w = torch.tensor([1.0, 2.0], requires_grad=True)
def block(x):
    print("block runs")
    return (x * w).sin()
x = torch.tensor([0.5, 1.5], requires_grad=True)
y = checkpoint(block, x, use_reentrant={reentrant})
y.sum().backward()
print(w.grad, x.grad)
"""


def traced(program: str) -> tuple[str, dict]:
    result = run_program(program, filename="main.py", trace=True)
    assert result.error is None, result.error
    return result.stdout, result.trace


def begins(trace: dict) -> list[dict]:
    return [e for e in trace["events"] if e["kind"] == "backward_begin"]


def test_a_custom_functions_backward_runs_once():
    out, trace = traced(FUNCTION)
    assert out == "backward runs\ntensor([ 6., 12.]) 1\n"
    # J is one row, read off what the pass itself handed the leaf: nothing runs again
    (begin,) = begins(trace)
    assert begin["jacobian"] == [{"root": begin["roots"][0], "leaf": begin["leaves"][0],
                                  "rows": [[6.0, 12.0]], "vjp": [6.0, 12.0]}]
    assert "jacobian_note" not in begin
    applies = {e["name"]: e for e in trace["events"] if e["kind"] == "node_apply"}
    # the learner's own node has no local rows; the engine's MulBackward0 keeps them
    assert "local" not in applies["SqBackward"] or applies["SqBackward"]["local"] is None
    assert applies["MulBackward0"].get("local")


def test_an_unpack_hook_runs_once_per_saved_tensor():
    out, trace = traced(UNPACK)
    assert out == ("unpack torch.Size([3])\n" * 3
                   + "tensor([ 1.0806, -2.6146, -5.4668]) 3\n")
    (begin,) = begins(trace)
    assert begin["jacobian"][0]["rows"] == [[1.0806, -2.61457, -5.46678]]


def test_checkpoint_reruns_the_function_once_inside_the_pass():
    for reentrant in (False, True):
        out, trace = traced(CHECKPOINT.format(reentrant=reentrant))
        assert out == ("block runs\nblock runs\n"
                       "tensor([ 0.4388, -1.4850]) tensor([ 0.8776, -1.9800])\n")
        # the second run is printed by the backward pass, not before it
        events = trace["events"]
        begin = next(i for i, e in enumerate(events) if e["kind"] == "backward_begin")
        end = next(i for i, e in enumerate(events) if e["kind"] == "backward_end")
        assert "".join(e["text"] for e in events[begin:end] if e["kind"] == "stdout") == \
            "block runs\n"
        outer = begins(trace)[0]
        if reentrant:
            # the rerun's own backward is a pass inside this one: the row cannot be told
            # from what the two passes hand on, and J is not shown
            assert outer["jacobian"] is None and outer["jacobian_note"] == "program_code"
        else:
            rows = {j["leaf"]: j["rows"] for j in outer["jacobian"]}
            assert sorted(rows.values()) == [[[0.438791, -1.48499]], [[0.877583, -1.97998]]]


def test_a_program_hook_keeps_the_note():
    out, trace = traced(FUNCTION.replace("a = torch.tensor([1.0, 2.0], requires_grad=True)\n",
                                         "a = torch.tensor([1.0, 2.0], requires_grad=True)\n"
                                         "a.register_hook(lambda g: g * 10)\n"))
    assert out == "backward runs\ntensor([ 60., 120.]) 1\n"
    (begin,) = begins(trace)
    assert begin["jacobian"] is None and begin["jacobian_note"] == "program_code"


def test_an_engine_only_graph_keeps_its_jacobian():
    out, trace = traced("import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)\n"
                        "(x * x).sum().backward()\nprint(x.grad)\n")
    assert out == "tensor([2., 4.])\n"
    (begin,) = begins(trace)
    assert begin["jacobian"][0]["rows"] == [[2.0, 4.0]]
