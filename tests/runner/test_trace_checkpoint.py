"""torch.utils.checkpoint in the trace: the rerun inside backward is steps of the pass.

A checkpointed function keeps nothing for backward; the first node that needs a saved tensor
makes checkpoint run the function again. PyTorch does that work, so the learner sees it: the
rerun's ops are `op` events inside the pass (`recompute: true`, `by` the node that needed
them), framed by a scope with `recompute: true`, and the picture gives the rerun's module
calls groups of their own (`lin ↻`), never the forward calls' groups.
"""
from __future__ import annotations

from gradstep.app.services.graph import graph_from_trace
from gradstep.app.services.groups import RERUN_MARK, assign_groups
from gradstep.runner import run_program

PROGRAM = """\
import torch
from torch.utils.checkpoint import checkpoint
torch.manual_seed(0)
lin = torch.nn.Linear(4, 4)
def block(x):
    return torch.relu(lin(x)) * 2
x = torch.randn(2, 4, requires_grad=True)
y = checkpoint(block, x, use_reentrant={reentrant})
loss = y.sum()
loss.backward()
print(x.grad.sum(), lin.weight.grad.sum())
"""

# what PyTorch 2.13 prints for both variants
PRINTED = "tensor(-4.7335) tensor(-7.8741)\n"


def traced(reentrant: bool) -> dict:
    result = run_program(PROGRAM.format(reentrant=reentrant), filename="main.py", trace=True)
    assert result.error is None, result.error
    assert result.stdout == PRINTED
    return result.trace


def test_the_rerun_is_ops_inside_the_pass_for_the_node_that_needs_them():
    trace = traced(False)
    events = trace["events"]
    begin = next(i for i, e in enumerate(events) if e["kind"] == "backward_begin")
    end = next(i for i, e in enumerate(events) if e["kind"] == "backward_end")
    rerun = [e for e in events if e["kind"] == "op" and e.get("recompute")]
    assert [e["op"] for e in rerun] == ["t", "addmm", "relu", "mul"]
    assert all(begin < events.index(e) < end and e["in_backward"] and e["line"] == 6
               for e in rerun)
    # ReluBackward0 needs its saved result: it is the node the rerun works for, and it runs
    # right after the rerun
    relu = next(e for e in events if e["kind"] == "op" and e["op"] == "relu"
                and not e["in_backward"])["node"]["id"]
    assert {e["by"] for e in rerun} == {relu}
    after = events[events.index(rerun[-1]) + 1]
    assert after["kind"] == "node_apply" and after["node"] == relu
    # the input checkpoint kept comes back detached; the wrapped 2 is a constant
    made = [e["how"] for e in events[begin:end] if e["kind"] == "tensor"]
    assert made == ["recompute", "constant"]
    # the forward's ops are not marked
    assert not any(e.get("recompute") for e in events[:begin])


def test_the_rerun_is_a_scope_and_its_calls_have_groups_of_their_own():
    trace = traced(False)
    scopes = {(s["path"], bool(s.get("recompute"))): s for s in trace["scopes"]}
    rerun = scopes["block", True]
    assert rerun["type"] == "checkpoint" and rerun["user"] and rerun["parent"] is None
    inner = [s for s in trace["scopes"] if s["parent"] == "block"]
    assert [s["path"] for s in inner] == ["lin", "lin"]     # the first run and the rerun
    assert scopes["block", False]["type"] == "checkpoint"
    groups = assign_groups(trace, graph_from_trace(trace))
    assert {"block", "lin", f"lin {RERUN_MARK}", f"block {RERUN_MARK}"} <= set(groups)
    assert groups["lin"]["parent"] == "block"
    assert groups[f"lin {RERUN_MARK}"]["parent"] == f"block {RERUN_MARK}"
    assert groups[f"block {RERUN_MARK}"]["label"] == f"block {RERUN_MARK} · checkpoint"


def test_a_reentrant_checkpoint_is_a_pass_inside_the_pass():
    trace = traced(True)
    events = trace["events"]
    passes = [(e["kind"], e["pass"]) for e in events
              if e["kind"] in ("backward_begin", "backward_end")]
    assert passes == [("backward_begin", 0), ("backward_begin", 1), ("backward_end", 1),
                      ("backward_end", 0)]
    rerun = [e for e in events if e["kind"] == "op" and e.get("recompute")]
    assert [e["op"] for e in rerun] == ["t", "addmm", "relu", "mul"]
    # after the inner pass, the outer one goes on: its node and accumulation are pass 0
    inner_end = next(i for i, e in enumerate(events)
                     if e["kind"] == "backward_end" and e["pass"] == 1)
    outer = [e for e in events[inner_end + 1:] if e["kind"] in ("node_apply", "accumulate")]
    assert outer and all(e["pass"] == 0 for e in outer)
    assert outer[0]["name"] == "CheckpointFunctionBackward"
