"""A stand-in for runner.WorkerPool with the same surface (run, ping, close), for tests of the
server's own policy: queueing, limits, caching. Its trace is the one of docs/trace-format.md
section 1 (`y = x * 3; s = y.sum(); s.backward()`), valid under runner.trace.validate."""
from __future__ import annotations

import threading
from dataclasses import dataclass, field

from gradstep.runner.trace import new_trace


def _value(shape, data):
    return {"shape": shape, "dtype": "torch.float32", "data": data, "repr": None}


def _tensor(tid, name, shape, data, *, rg=True, leaf=True, grad_fn=None):
    return {"id": tid, "name": name, "shape": shape, "dtype": "torch.float32",
            "requires_grad": rg, "is_leaf": leaf, "grad_fn": grad_fn, "value": _value(shape, data)}


def sample_trace(source: str = "x * 3\n") -> dict:
    """A small, complete, valid trace with a leaf, two ops, an AccumulateGrad and a constant."""
    t = new_trace(source, "main.py")
    acc = {"id": "n1", "name": "AccumulateGrad", "variable": "t0", "next_functions": [],
           "saved": [], "rule": None}
    mul = {"id": "n0", "name": "MulBackward0", "next_functions": [["n1", 0], [None, 0]],
           "saved": [{"name": "other", "tensor": None, "value": _value([], 3.0),
                      "freed": False}], "rule": "grad * other"}
    add = {"id": "n2", "name": "AddBackward0", "next_functions": [["n0", 0], [None, 0]],
           "saved": [], "rule": "grad"}
    events = [
        {"kind": "tensor", "line": 2, "how": "tensor", "grad_mode": True,
         "tensor": _tensor("t0", "x", [2], [1.0, 2.0])},
        {"kind": "op", "line": 3, "op": "mul", "inputs": ["t0"], "grad_mode": True,
         "in_backward": False, "node": mul, "new_nodes": [acc],
         "output": _tensor("t1", "y", [2], [3.0, 6.0], leaf=False, grad_fn="n0")},
        {"kind": "tensor", "line": 4, "how": "ones", "grad_mode": True,
         "tensor": _tensor("t2", "c", [2], [1.0, 1.0], rg=False)},
        {"kind": "op", "line": 5, "op": "add", "inputs": ["t1", "t2"], "grad_mode": True,
         "in_backward": False, "node": add, "new_nodes": [],
         "output": _tensor("t3", "s", [2], [4.0, 7.0], leaf=False, grad_fn="n2")},
        {"kind": "stdout", "line": 6, "text": "ok\n"},
        {"kind": "end", "line": None, "exit_code": 0,
         "counts": {"events": 6, "passes": 0, "ops": 2, "elided_events": 0}},
    ]
    for seq, event in enumerate(events):
        t["events"].append({"seq": seq, **event})
    return t


@dataclass
class FakeResult:
    stdout: str
    stderr: str = ""
    exit_code: int = 0
    error: dict | None = None
    trace: dict | None = None
    duration_ms: float = 1.0


@dataclass
class FakePool:
    """Answers every program with sample_trace; `hold` makes runs wait until it is set."""

    size: int = 1
    runs: int = 0
    closed: bool = False
    hold: threading.Event | None = None
    started: threading.Event = field(default_factory=threading.Event)

    def run(self, source: str, **_) -> FakeResult:
        self.runs += 1
        self.started.set()
        if self.hold is not None:
            self.hold.wait(30)
        if "raise" in source:
            return FakeResult("", "Traceback ...\nValueError: boom\n", 1,
                              {"type": "ValueError", "message": "boom", "line": 1,
                               "kind": "exception"}, sample_trace(source))
        return FakeResult("ok\n", trace=sample_trace(source))

    def ping(self) -> float:
        return 0.001

    def close(self) -> None:
        self.closed = True
