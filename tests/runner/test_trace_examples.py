"""Every program in the examples menu traces into a valid trace, without the recorder failing,
and the same way twice. These are what learners click first."""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from gradstep.runner import trace as T

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "app" / "examples").glob("*.py"))
spec = importlib.util.spec_from_file_location(
    "trace_regen_e", ROOT / "tests" / "fixtures" / "traces" / "regen.py")
regen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(regen)

_ADDRESS = re.compile(r" at 0x[0-9a-f]+")


def test_there_are_examples():
    assert len(EXAMPLES) >= 5


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_traces_cleanly_and_deterministically(path):
    source = path.read_text(encoding="utf-8")
    first, out, _ = regen.record_program(source, path.name)  # check=True validates it
    assert not [e for e in first["events"]
                if e["kind"] == "elided" and e["reason"] == "recorder_failure"]
    console = "".join(e["text"] if e["kind"] == "stdout" else e["stdout"]
                      for e in first["events"] if e["kind"] in ("stdout", "elided"))
    assert console == out
    second, _, _ = regen.record_program(source, path.name)
    # printed object addresses (`<AddBackward0 object at 0x…>`) are the program's, not ours
    assert (_ADDRESS.sub("", T.dump(first).decode()) ==
            _ADDRESS.sub("", T.dump(second).decode()))
