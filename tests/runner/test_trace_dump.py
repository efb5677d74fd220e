"""The recorder dumps each event from the text it sized it with (NOTE [events encoded once] in
runner/trace.py): the bytes must be exactly runner.trace.dump()'s, under every cap, and within
max_bytes."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from gradstep.runner import trace as T
from gradstep.runner.recorder import Recorder

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "traces"
spec = importlib.util.spec_from_file_location("trace_regen_d", HERE / "regen.py")
regen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(regen)

# A long console in a loop with non-ASCII text: the byte cap cuts and, at the smallest caps,
# squeezes the elided event's console text.
CONSOLE = """\
import torch
w = torch.ones(3, requires_grad=True)
for i in range(40):
    loss = (w * w).sum()
    loss.backward()
    print("é∂ 日本 loss", i, loss.item())
    w.grad = None
"""


def record(source: str, limits: dict | None, monkeypatch) -> tuple[dict, Recorder]:
    seen = []
    finish = Recorder.finish

    def spy(self, exit_code, check=False):
        seen.append(self)
        return finish(self, exit_code, check)

    monkeypatch.setattr(Recorder, "finish", spy)
    trace, _, _ = regen.record_program(source, "main.py", limits)
    return trace, seen[-1]


@pytest.mark.parametrize("limits", [None, {"max_bytes": 3000}, {"max_bytes": 12_000},
                                    {"max_events": 20}])
@pytest.mark.parametrize("name", ["training_loop_elided", "s000_backward_twice_error",
                                  "CONSOLE"])
def test_recorder_dump_is_the_canonical_dump(name, limits, monkeypatch):
    source = CONSOLE if name == "CONSOLE" else (
        HERE / "programs" / f"{name}.py").read_text(encoding="utf-8")
    trace, rec = record(source, limits, monkeypatch)
    data = rec.dump(trace)
    assert data == T.dump(trace)
    # the cap holds, except for what a kept error needs: the error and the definitions it
    # names (docs/trace-format.md, section 10)
    events = trace["events"]
    errors = [e for e in events if e["kind"] == "error"]
    for_errors = sum(len(T.dump_event(e).encode()) + 2 for e in errors + [
        c for e in events if e["kind"] == "elided" and e["reason"] != "detail_window"
        for c in e["carried"]]) if errors else 0
    assert len(data) <= trace["limits"]["max_bytes"] + for_errors
    if name != "s000_backward_twice_error":
        assert not errors and len(data) <= trace["limits"]["max_bytes"]
    T.validate(T.load(data))


def test_squeezed_console_is_dumped_as_it_ends(monkeypatch):
    trace, rec = record(CONSOLE, {"max_bytes": 1500}, monkeypatch)
    (el,) = [e for e in trace["events"] if e["kind"] == "elided"]
    assert el["counts"]["stdout_truncated"] == 1
    data = rec.dump(trace)
    assert data == T.dump(trace) and len(data) <= 1500


def test_unnumbered_text_takes_the_number_where_dump_event_puts_seq():
    event = {"kind": "stdout", "line": 3, "text": '"seq":-1 is only text here'}
    text = T.dump_unnumbered(event)
    assert "seq" not in event
    assert T.number_event(text, 12) == T.dump_event({**event, "seq": 12})
    assert len(text.encode()) - T.PLACEHOLDER_BYTES == len(T.dump_event(event).encode())


def test_building_pauses_the_cyclic_collector_and_restores_it(monkeypatch):
    import gc

    from gradstep.runner import trace_build
    seen = []
    build = trace_build.Builder.build

    def spy(self, *args):
        seen.append(gc.isenabled())
        return build(self, *args)

    monkeypatch.setattr(trace_build.Builder, "build", spy)
    assert gc.isenabled()
    record(CONSOLE, None, monkeypatch)
    assert seen == [False] and gc.isenabled()
    gc.disable()
    try:  # a caller that turned it off itself keeps it off
        record(CONSOLE, None, monkeypatch)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_each_event_is_sized_as_its_compact_json_without_seq(monkeypatch):
    # the caps add these numbers up, so they must be exact (elided events, measured afresh
    # each time, are not cached)
    import json
    source = (HERE / "programs" / "training_loop_elided.py").read_text(encoding="utf-8")
    trace, rec = record(source, {"max_bytes": 12_000}, monkeypatch)
    for e in trace["events"][:-1]:  # `end` is made after the cap
        if e["kind"] != "elided":
            text = json.dumps({k: v for k, v in e.items() if k != "seq"},
                              separators=(",", ":"), ensure_ascii=False)
            assert rec._builder.nbytes(e) == len(text.encode())


def test_a_finished_recorder_is_freed_without_the_collector():
    """The recorder keeps its builder for dump(); if the builder pointed back, the pair would
    be a cycle left to the garbage collector, whose next runs walk the whole finished trace
    (measured: a traced W1 repetition ran 40% slower while the previous one waited)."""
    import gc
    import weakref

    import gradstep.engine as torch
    from gradstep.engine import _events
    src = "x = torch.ones(3, requires_grad=True)\n(x * 2).sum().backward()\n"
    rec = Recorder(src, "main.py")
    old = _events.set_listener(rec)
    try:
        exec(compile(src, "main.py", "exec"), {"torch": torch})
    finally:
        _events.set_listener(old)
    trace = rec.finish(0)
    assert rec.dump(trace) == T.dump(trace)
    gone, builder_gone = weakref.ref(rec), weakref.ref(rec._builder)
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        del rec
        assert gone() is None
        assert builder_gone() is None  # nor may the builder (which holds every event) be one
    finally:
        if was_enabled:
            gc.enable()
