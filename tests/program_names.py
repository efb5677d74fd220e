"""What a program's own variables hold, found without the recorder's help: the ground truth
the naming sweep (tests/web/test_sweep_names_e2e.py) holds the page to.

The program runs in this process on the engine (as tests/fixtures/traces/regen.py runs the
golden programs) under a line tracer on its own frame. Each time the module's frame moves on
from a statement `NAME = …`, the tracer reads what NAME now holds; a tensor that requires grad
is looked up in the recorder's id table, so the answer is the trace id the page draws.
Assignments inside functions (a module's `forward`) are the function's business, not the
program's names, and are not looked at.
"""
from __future__ import annotations

import ast
import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location(
    "sweep_regen", ROOT / "tests" / "fixtures" / "traces" / "regen.py")
regen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(regen)

FILENAME = "main.py"


@dataclass(frozen=True)
class Binding:
    line: int
    name: str
    tensor: str     # the trace id of the tensor NAME held after the statement
    graph: bool     # whether it requires grad (else a constant: checked only when drawn)


def assignments(source: str) -> dict[int, str]:
    """line -> NAME for each `NAME = …` outside function and class bodies."""
    out: dict[int, str] = {}

    def walk(body: list[ast.stmt]) -> None:
        for st in body:
            if isinstance(st, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
                continue
            if (isinstance(st, ast.Assign) and len(st.targets) == 1
                    and isinstance(st.targets[0], ast.Name)):
                out[st.lineno] = st.targets[0].id
            for field in ("body", "orelse", "finalbody"):
                walk(getattr(st, field, []) or [])

    walk(ast.parse(source).body)
    return out


def bindings(source: str) -> list[Binding]:
    """Every (line, NAME, trace id) the program bound to a tensor the recorder knows, in the
    order it ran, once per distinct tensor."""
    targets = assignments(source)
    seen: list[tuple[int, str, object]] = []
    last = {"line": None}

    def look(frame) -> None:
        name = targets.get(last["line"])
        value = frame.f_globals.get(name) if name else None
        if hasattr(value, "requires_grad") and hasattr(value, "_uid"):
            seen.append((last["line"], name, value))

    def local(frame, event, arg):
        if event in ("line", "return"):
            look(frame)
            last["line"] = frame.f_lineno if event == "line" else None
        return local

    def tracer(frame, event, arg):
        if frame.f_code.co_filename == FILENAME and frame.f_code.co_name == "<module>":
            return local
        return None

    recorders = []

    class Keep(regen.Recorder):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            recorders.append(self)

    original = regen.Recorder
    regen.Recorder = Keep
    old = sys.gettrace()
    sys.settrace(tracer)
    try:
        regen.record_program(source, FILENAME)
    finally:
        sys.settrace(old)
        regen.Recorder = original
    ids = recorders[0]._tids
    out: list[Binding] = []
    done: set[tuple[str, str]] = set()
    for line, name, tensor in seen:
        tid = ids.get(tensor._uid)
        if tid is not None and (name, tid) not in done:
            done.add((name, tid))
            out.append(Binding(line, name, tid, bool(tensor.requires_grad)))
    return out
