"""A pass longer than the byte cap allows keeps its beginning and end steppable
(runner/trace_ends.py, docs/trace-format.md section 10): never a whole backward pass in one
elided event."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from gradstep.runner import trace as T
from gradstep.runner import trace_ends as ends

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "traces"
spec = importlib.util.spec_from_file_location("trace_regen_long", HERE / "regen.py")
regen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(regen)

CHAIN = """\
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x
for i in range(5000):
    y = y * 1.0001
y.sum().backward()
print(x.grad)
"""


@pytest.fixture(scope="module")
def chain():
    trace, out, code = regen.record_program(CHAIN, "main.py")
    assert code == 0
    return trace, out


def _kinds(trace):
    return [e["kind"] for e in trace["events"]]


def test_a_5000_op_chain_keeps_its_backward_steppable_at_both_ends(chain):
    trace, out = chain
    data = T.dump(trace)
    assert len(data) <= trace["limits"]["max_bytes"] and trace["truncated"] is True
    T.validate(T.load(data))
    kinds, events = _kinds(trace), trace["events"]
    # the beginning of the backward pass: it starts, and its first nodes are applied
    begin = kinds.index("backward_begin")
    assert kinds[begin + 1:begin + 4] == ["node_apply"] * 3
    assert events[begin + 1]["name"] == "SumBackward0"
    assert events[begin + 2]["name"] == "MulBackward0"
    # ... its middle is one summary ...
    middle = events[kinds.index("elided", begin)]
    assert middle["reason"] == "byte_cap" and middle["counts"]["node_apply"] > 1000
    assert middle["passes"] is None  # the pass itself is not summarised: it is stepped
    # ... and its end: the last multiplications, x's gradient written, the pass closed
    acc = kinds.index("accumulate")
    assert kinds.index("elided", begin) < acc < kinds.index("backward_end")
    assert kinds[acc - 3:acc] == ["node_apply"] * 3
    assert events[acc - 1]["name"] == "MulBackward0"
    assert events[acc]["node"] in events[acc - 1]["to"]  # the first multiplication's input
    grad = np.array(events[acc]["after"]["data"])
    assert grad == pytest.approx([1.0001 ** 5000] * 2, rel=1e-3)
    assert "tensor([" in out and kinds[-2:] == ["stdout", "end"]


def test_the_forward_pass_of_the_chain_keeps_its_first_and_last_ops(chain):
    trace, _ = chain
    kinds, events = _kinds(trace), trace["events"]
    first = kinds.index("elided")
    ops_before = [e for e in events[:first] if e["kind"] == "op"]
    ops_after = [e for e in events[first:kinds.index("backward_begin")] if e["kind"] == "op"]
    assert len(ops_before) > 100 and ops_before[0]["op"] == "mul"
    assert ops_after and ops_after[-1]["op"] == "sum"
    assert events[first]["counts"]["op"] > 1000


def test_every_event_a_kept_step_names_is_defined_when_folded(chain):
    trace, _ = chain
    known = set()
    for e in trace["events"]:
        refs = []
        T._ids_in(e, refs)
        new = T.defined_ids(e)
        assert set(refs) <= known | set(new), e["kind"]
        known.update(new)


def test_stretches_split_at_each_pass_and_share_the_room():
    kinds = ["op"] * 6 + ["backward_begin"] + ["node_apply"] * 8 + ["backward_end", "stdout"]
    assert ends.stretches(kinds) == [(0, 6), (6, 16), (16, 17)]
    keep = ends.kept(kinds, 9)
    # the short stretch keeps all; the others share the rest: 4 each, 2 first + 1 last
    assert keep[16]
    assert keep[:6] == [True, True, False, False, False, True]
    assert keep[6:16] == [True, True] + [False] * 7 + [True]
    assert ends.left_out(keep) == [(2, 5), (8, 15)]
    assert sum(keep) + len(ends.left_out(keep)) <= 9
