"""Runs the pure JS modules' unit tests (tests/web/js/*.test.mjs) with Node's own test runner,
so they are part of the one pytest suite."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

HERE = Path(__file__).parent / "js"


def test_node_unit_tests_pass():
    node = shutil.which("node")
    assert node, "the JS unit tests need Node.js 20 or later on PATH"
    files = sorted(str(p) for p in HERE.glob("*.test.mjs"))
    assert len(files) >= 3, files
    proc = subprocess.run([node, "--test", *files], capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert "# fail 0" in proc.stdout
