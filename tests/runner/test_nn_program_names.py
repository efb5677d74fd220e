"""The nn/optim programs of tests/fixtures/nn_programs/: every tensor a learner reaches by a
name is named in the trace, and a module's construction is one library step.

Checked on the trace: the tensors whose gradients are stored, reset or stepped (parameters,
or leaves the program made), the root of every `name.backward()` (a loss), and the parameters
a library step carries all have names; no name looks like a trace id.
"""
import re
from pathlib import Path

import pytest

PROGRAMS = Path(__file__).resolve().parents[1] / "fixtures" / "nn_programs"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py"))
ID = re.compile(r"[tng]\d+")
CALLED_ON_NAME = re.compile(r"\s*\w+\.backward\(")


def tensor_names(events) -> dict:
    out, stack = {}, list(events)
    while stack:
        e = stack.pop()
        stack.extend(e.get("carried") or [])
        t = e.get("tensor") if e["kind"] == "tensor" else e.get("output")
        if isinstance(t, dict):
            out.setdefault(t["id"], t["name"])
    return out


def test_there_are_twenty_programs():
    assert len(NAMES) >= 20


@pytest.mark.parametrize("name", NAMES)
def test_every_reachable_tensor_is_named(pool, name):
    result = pool.run((PROGRAMS / f"{name}.py").read_text(), trace=True)
    assert result.exit_code == 0, result.error
    events = result.trace["events"]
    source = result.trace["program"]["source"].splitlines()
    names = tensor_names(events)
    reached = []
    for e in events:
        if e["kind"] in ("accumulate", "grad_reset"):
            reached.append(e["tensor"])
        elif e["kind"] == "optimizer_step":
            reached.extend(p["tensor"] for p in e["params"])
        elif e["kind"] == "backward_begin" and CALLED_ON_NAME.match(source[e["line"] - 1]):
            reached.extend(e["roots"])  # `loss.backward()`, not `loss.sum().backward()`
    assert reached
    unnamed = sorted({t for t in reached if not names.get(t)})
    assert not unnamed, unnamed
    for e in events:
        if e["kind"] == "elided" and e["reason"] == "library" and e.get("call"):
            # a library function on the gradients: every .grad it changed is named
            changed = [u["tensor"] for u in e["updates"] if "grad" in u]
            assert changed and all(names.get(t) for t in changed), changed
        elif e["kind"] == "elided" and e["reason"] == "library":
            params = [c["tensor"]["name"] for c in e["carried"] if c["kind"] == "tensor"
                      and c["how"] == "Parameter"]
            assert params and all(params), params
    assert not [n for n in names.values() if n and ID.fullmatch(n)]
    # nothing of a module's initialisation is a step of its own
    assert not any(e["kind"] == "inplace" and e["op"] in ("uniform_", "normal_", "fill_",
                                                          "zero_") and e["line"] is not None
                   and "nn." in source[e["line"] - 1]
                   for e in events)
