"""How the recorder finds the line of an op (NOTE [the op's line] in runner/recorder_forward.py).

on_op first looks at one frame, the op's caller, at a fixed distance from itself; only when
that frame is not the user's does it walk the stack. In the sandbox the child's limit watch
forwards every event, which puts one more frame in between (Recorder.forwarded). These tests
run programs the way the child does and check both the lines the trace gets and that ops
called from the user's code take the one look, not the walk.
"""
from __future__ import annotations

import sys

import pytest

import gradstep.engine as torch
from gradstep.engine import _events
from gradstep.runner.child import _LimitWatch
from gradstep.runner.limits import Limits
from gradstep.runner.recorder import Recorder

PROGRAM = """\
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x
for i in range(40):
    y = y * 1.5
    y = y.sin()

def step(t):
    return t + 1.0

z = step(y)
z.sum().backward()
"""


def record(watched: bool, monkeypatch) -> tuple[dict, int]:
    """(the trace, how many times on_op walked the stack) for PROGRAM."""
    walks = []
    walk = Recorder._walk_from

    def counting_walk(self, f):
        if sys._getframe(1).f_code.co_name == "on_op":
            walks.append(f)
        return walk(self, f)

    monkeypatch.setattr(Recorder, "_walk_from", counting_walk)
    rec = Recorder(PROGRAM, "main.py")
    listener = _LimitWatch(Limits(), rec) if watched else rec
    old = _events.set_listener(listener)
    try:
        exec(compile(PROGRAM, "main.py", "exec"), {"torch": torch})
    finally:
        _events.set_listener(old)
    return rec.finish(0), len(walks)


@pytest.mark.parametrize("watched", [True, False], ids=["limit-watch", "recorder-alone"])
def test_op_lines_are_the_user_lines(watched, monkeypatch):
    trace, _ = record(watched, monkeypatch)
    ops = [(e["op"], e["line"]) for e in trace["events"] if e["kind"] == "op"]
    assert ops[:4] == [("mul", 4), ("sin", 5), ("mul", 4), ("sin", 5)]
    assert ("add", 8) in ops                    # inside the user's function
    assert ops[-1] == ("sum", 11)


@pytest.mark.parametrize("watched", [True, False], ids=["limit-watch", "recorder-alone"])
def test_ops_called_from_user_code_take_one_look(watched, monkeypatch):
    # 82 ops, all called straight from the user's code: only the first walks (and learns
    # that main.py is the user's file). Before Recorder.forwarded, the limit watch's extra
    # frame made every one of them walk.
    trace, walks = record(watched, monkeypatch)
    assert sum(e["kind"] == "op" for e in trace["events"]) == 82
    assert walks <= 1
