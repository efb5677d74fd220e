"""Light iterations: a loop's middle recorded as its loss and parameters only.

`runner/recorder_loops.py` says how many iterations a `for ... in range(...)` loop has left;
`runner/recorder_light.py` records the windows it knows will be summarised without detail. The
same loop over a list (which the recorder cannot count ahead) is recorded in full: both must
tell the same story where it is shown.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from gradstep.runner import trace as T
from gradstep.runner.recorder_loops import LoopClock

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("trace_regen",
                                               ROOT / "tests" / "fixtures" / "traces" / "regen.py")
regen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(regen)

SGD = """import torch
w = torch.tensor(0.0, requires_grad=True)
b = torch.tensor(1.0, requires_grad=True)
for step in range(STEPS):
    loss = (w * 2 + b - 3) ** 2
    loss.backward()
    with torch.no_grad():
        w -= 0.05 * w.grad
        b -= 0.05 * b.grad
    w.grad.zero_()
    b.grad.zero_()
    if step % 10 == 0:
        print(step, loss.item())
print(w.item(), b.item())
"""


def record(source: str) -> dict:
    trace, _, code = regen.record_program(source, "main.py")
    assert code == 0
    T.validate(trace)
    return trace


def story(trace: dict) -> list:
    """What the kept events say, without ids: kind, line, names and values."""
    names = {}
    out = []
    for e in trace["events"]:
        for c in [e, *(e.get("carried") or [])]:
            if c["kind"] == "tensor":
                names[c["tensor"]["id"]] = c["tensor"]["name"]
        if e["kind"] == "op":
            names[e["output"]["id"]] = e["output"]["name"]
            out.append(("op", e["line"], e["op"], e["output"]["name"],
                        e["output"]["value"]["data"]))
        elif e["kind"] == "accumulate":
            out.append(("accumulate", names.get(e["tensor"]), e["after"]["data"]))
        elif e["kind"] in ("stdout", "backward_begin", "backward_end"):
            out.append((e["kind"], e["line"], e.get("text"), e.get("pass")))
    return out


def test_a_counted_loop_tells_the_story_a_full_recording_tells():
    light = record(SGD.replace("STEPS", "60"))
    full = record(SGD.replace("range(STEPS)", "list(range(60))"))
    (el_light,) = [e for e in light["events"] if e["kind"] == "elided"]
    (el_full,) = [e for e in full["events"] if e["kind"] == "elided"]
    # the same passes summarised, the same loss curve and console
    assert el_light["passes"] == el_full["passes"] == [3, 57]
    assert el_light["series"] == el_full["series"]
    assert el_light["stdout"] == el_full["stdout"]
    assert light["series"] == full["series"]
    # (light counts are the engine's events: its ops on a .grad are counted too)
    assert el_light["counts"]["backward_begin"] == el_full["counts"]["backward_begin"] == 55
    assert el_light["counts"]["op"] >= el_full["counts"]["op"]
    # the parameters' latest values and .grad reach the kept iterations
    ids = {e["tensor"]["name"]: e["tensor"]["id"] for e in light["events"]
           if e["kind"] == "tensor" and e["tensor"]["name"] in ("w", "b")}
    updated = {u["tensor"]: u for u in el_light["updates"]}
    assert set(ids.values()) <= set(updated)
    # the kept last iterations read alike, names numbered as if every binding were seen
    assert story(light)[-30:] == story(full)[-30:]
    assert any(s[0] == "op" and s[3] == "loss₆₀" for s in story(light))


def test_a_loop_of_batches_is_counted_across_epochs():
    # 12 epochs of 5 batches: 60 passes, the same as SGD's 60 steps in one loop
    batches = SGD.replace("for step in range(STEPS):\n", "for epoch in range(12):\n"
                          "    for start in range(0, 10, 2):\n        step = epoch * 5 + start // 2\n")
    body = SGD.split("range(STEPS):\n")[1].split("print(w.item()")[0]
    batches = batches.replace(body, "".join("    " + ln + "\n" for ln in body.splitlines()))
    light = record(batches)
    full = record(batches.replace("range(12)", "list(range(12))"))
    (el_light,) = [e for e in light["events"] if e["kind"] == "elided"]
    (el_full,) = [e for e in full["events"] if e["kind"] == "elided"]
    assert el_light["passes"] == el_full["passes"] == [3, 57]
    assert el_light["series"] == el_full["series"]
    assert el_light["stdout"] == el_full["stdout"]
    assert story(light)[-30:] == story(full)[-30:]
    # recorded light: the engine's ops on a .grad are counted too, a full window's are not
    assert el_light["counts"]["op"] > el_full["counts"]["op"]


def test_the_light_middle_keeps_the_final_values():
    trace = record(SGD.replace("STEPS", "200"))
    console = "".join(e["text"] if e["kind"] == "stdout" else e["stdout"]
                      for e in trace["events"] if e["kind"] in ("stdout", "elided"))
    # every print of the run reaches the console, in order
    assert [line.split()[0] for line in console.splitlines()[:-1]] == [
        str(k) for k in range(0, 200, 10)]
    assert len(trace["series"]["roots"]) == 200
    assert trace["events"][-1]["counts"]["passes"] == 200


def test_a_loop_that_stops_early_keeps_its_error():
    source = SGD.replace("STEPS", "100").replace(
        "    if step % 10 == 0:", "    if step == 70:\n        w.grad.numpy()[5]\n"
        "    if step % 10 == 0:")
    trace, _, code = regen.record_program(source, "main.py")
    assert code == 1
    T.validate(trace)
    errors = [e for e in trace["events"] if e["kind"] == "error"]
    assert errors and errors[-1]["type"] == "IndexError"
    (el,) = [e for e in trace["events"] if e["kind"] == "elided"]
    assert el["passes"][1] == 70


@pytest.mark.parametrize("watched", [False, True])
def test_a_recorder_bug_in_a_light_window_never_changes_the_program(monkeypatch, watched):
    # the engine calls the light methods with nothing in between (NOTE [light routing]):
    # each contains its own errors, and the recorder then stops taking detail
    import gradstep.runner.recorder_light as recorder_light

    def broken(*args):
        raise KeyError("simulated recorder bug")

    monkeypatch.setattr(recorder_light.LightEvents, "_light_track", broken)
    source = SGD.replace("STEPS", "100")
    trace, out, code = regen.record_program(source, "main.py", watched=watched)
    assert code == 0 and len(out.splitlines()) == 11
    T.validate(trace)
    (failure,) = [e for e in trace["events"] if e["kind"] == "elided"
                  and e["reason"] == "recorder_failure"]
    assert "simulated recorder bug" in failure["message"]
    # it broke in the first light pass (the first the middle summarises), at its gradient:
    # all passes before it are kept as recorded
    monkeypatch.undo()
    (middle,) = [e for e in record(source)["events"] if e["kind"] == "elided"]
    passes = [e["pass"] for e in trace["events"] if e["kind"] == "backward_begin"]
    assert passes == list(range(middle["passes"][0]))
    assert "".join(e["text"] for e in trace["events"] if e["kind"] == "stdout") == out


@pytest.mark.parametrize("watched", [False, True])
def test_a_recorder_finished_after_light_windows_is_freed_without_the_collector(watched):
    # the light table holds the recorder's methods and the recorder the watch's follow():
    # finish() lets go of both, or the finished trace would wait for the collector
    import gc
    import weakref

    import gradstep.engine as torch
    from gradstep.engine import _events
    from gradstep.runner.child import _LimitWatch
    from gradstep.runner.limits import Limits
    from gradstep.runner.recorder import Recorder
    source = SGD.replace("STEPS", "40").replace("import torch\n", "")
    rec = Recorder(source, "main.py")
    old = _events.set_listener(_LimitWatch(Limits(), rec) if watched else rec)
    try:
        exec(compile(source, "main.py", "exec"), {"torch": torch, "print": lambda *a: None})
    finally:
        _events.set_listener(old)
    trace = rec.finish(0)
    assert [e for e in trace["events"] if e["kind"] == "elided"]
    gone = weakref.ref(rec)
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        del rec
        assert gone() is None
    finally:
        if was_enabled:
            gc.enable()


def test_a_leaf_remade_every_epoch_is_carried_named():
    source = (ROOT / "tests" / "fixtures" / "traces" / "programs" / "training_loop_elided.py"
              ).read_text(encoding="utf-8")
    trace = record(source)
    (el,) = [e for e in trace["events"] if e["kind"] == "elided"]
    (params,) = el["carried"]
    assert params["how"] == "loop" and params["tensor"]["name"].startswith("params")
    assert params["tensor"]["requires_grad"] and params["tensor"]["is_leaf"]
    assert any(u["tensor"] == params["tensor"]["id"] and "grad" in u for u in el["updates"])
    # named as a full recording names it (the loop over a list is recorded in full)
    full = record(source.replace("in range(1, n_epochs + 1)", "in list(range(1, n_epochs + 1))"))
    (el_full,) = [e for e in full["events"] if e["kind"] == "elided"]
    carried_names = {c["tensor"]["name"] for c in el_full["carried"] if c["kind"] == "tensor"}
    assert params["tensor"]["name"] in carried_names

    def names_after(t, el):
        return [e["tensor"]["name"] if e["kind"] == "tensor" else e["output"]["name"]
                for e in t["events"][el["seq"] + 1:] if e["kind"] in ("tensor", "op")]
    assert names_after(trace, el) == names_after(full, el_full)


def _frame_at(source: str, env: dict, line: int):
    """Run `source`, returning the frame and the loop clock's answer when `line` runs."""
    seen = []

    def tracer(frame, event, arg):
        if frame.f_code.co_filename == "prog.py":
            if event == "line" and frame.f_lineno == line:
                seen.append(LoopClock(source).remaining(frame, line))
            return tracer
        return None
    code = compile(source, "prog.py", "exec")
    old = sys.gettrace()
    sys.settrace(tracer)
    try:
        exec(code, env)
    finally:
        sys.settrace(old)
    return seen


@pytest.mark.parametrize(("source", "line", "expected"), [
    ("for i in range(5):\n    x = i\n", 2, [4, 3, 2, 1, 0]),
    ("import contextlib\nn = 3\nfor i in range(1, n + 1):\n"
     "    with contextlib.nullcontext():\n        x = i\n", 5, [2, 1, 0]),
    ("for i in range(10, 0, -3):\n    x = i\n", 2, [3, 2, 1, 0]),
    ("def f(k):\n    for i in range(k * 2):\n        x = i\nf(2)\n", 3, [3, 2, 1, 0]),
    # a loop in a loop: the inner one's rest, and its length for every outer iteration left
    ("n = 6\nfor e in range(2):\n    for s in range(0, n, 2):\n        x = s\n", 4,
     [5, 4, 3, 2, 1, 0]),
    ("for e in range(2):\n    y = e\n    for s in range(3):\n        x = s\n", 2, [1, 0]),
    # ... unless the inner range may change between epochs: then the inner loop's rest only
    ("for e in range(3):\n    for s in range(e):\n        x = s\n", 3, [0, 1, 0]),
    ("n = 2\nfor e in range(2):\n    for s in range(n):\n        x = s\n    n = 3\n", 4,
     [1, 0, 2, 1, 0]),
])
def test_the_clock_counts_what_is_left(source, line, expected):
    assert _frame_at(source, {}, line) == expected


@pytest.mark.parametrize(("source", "line"), [
    ("i = 0\nwhile i < 3:\n    i += 1\n", 3),                            # not a for loop
    ("for i in [0, 1, 2]:\n    x = i\n", 2),                            # not a range
    ("for i in range(3):\n    if i:\n        x = i\n", 3),              # not every iteration
    ("for i in range(3):\n    x = i\n    if x > 5:\n        break\n", 2),  # may stop early
    ("n = 3\nfor i in range(n):\n    x = i\n    n = 1\n", 3),          # the range's name changes
    ("n = 3.0\nfor i in range(int(n)):\n    x = i\n", 3),             # a call in the range
    ("for i in range(3):\n    i = 7\n", 2),                            # the variable reassigned
    ("for e in range(3):\n    for s in range(2):\n        x = s\n        if s:\n"
     "            break\n", 3),                                         # may stop early
])
def test_the_clock_says_nothing_when_it_cannot_be_sure(source, line):
    assert set(_frame_at(source, {}, line)) <= {None}
