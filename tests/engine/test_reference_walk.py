"""The fast backward walk (engine/autograd/walk.py) against the plain one
(engine/autograd/reference_walk.py), on every golden program: each backward pass a program
makes from one root, with no hooks and no create_graph, must give each leaf the gradient the
reference gives it, bit for bit.

Each program runs in a forked child of this process (the engine loaded once, the program's
global state gone with the child); the child wraps `walk.run`, runs the reference before
each pass it can check (the fast walk frees saved tensors), and reports what it compared."""
from __future__ import annotations

import io
import json
import os
import runpy
import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np
import pytest

TESTS = Path(__file__).resolve().parents[1]
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))

import fidelity  # noqa: E402

from gradstep.engine.__main__ import alias_torch  # noqa: E402
from gradstep.engine.autograd import reference_walk, walk  # noqa: E402
from gradstep.engine.ops._op import edge  # noqa: E402

CASES = fidelity.all_cases()


def _reachable(start) -> list:
    nodes, stack = {start}, [start]
    while stack:
        for fn, _ in stack.pop().next_functions:
            if fn is not None and fn not in nodes:
                nodes.add(fn)
                stack.append(fn)
    return list(nodes)


def _checkable(roots, targets, capture, accumulate, create_graph) -> bool:
    """One root, leaves' .grad the result, and no hook, retain_grad or anomaly check on
    the way (the reference has none of them)."""
    if len(roots) != 1 or targets is not None or capture is not None or not accumulate \
            or create_graph:
        return False
    start = edge(roots[0])[0]
    if start is None:
        return False
    for node in _reachable(start):
        if node._x is not None:
            return False
        variable = getattr(node, "variable", None)
        if variable is not None and variable._x:
            return False
    return True


def _compare(case: Path) -> dict:
    """In the child: run the case with every checkable pass compared; the report."""
    fast = walk.run
    report = {"passes": 0, "mismatches": []}

    def checked(roots, seeds, retain_graph, create_graph, targets=None, capture=None,
                accumulate=True):
        if not _checkable(roots, targets, capture, accumulate, create_graph):
            return fast(roots, seeds, retain_graph, create_graph, targets, capture, accumulate)
        start, nr = edge(roots[0])
        try:
            expected = reference_walk.gradients(start, nr, seeds[0])
        except Exception:       # a freed graph, say: the fast walk raises its own error
            return fast(roots, seeds, retain_graph, create_graph, targets, capture, accumulate)
        before = {id(leaf): (None if leaf.grad is None else leaf.grad._data.copy())
                  for leaf in expected}
        result = fast(roots, seeds, retain_graph, create_graph, targets, capture, accumulate)
        report["passes"] += 1
        for leaf, g in expected.items():
            old = before[id(leaf)]
            want = g._data if old is None else old + g._data
            got = None if leaf.grad is None else leaf.grad._data
            if got is None or got.shape != want.shape or not np.array_equal(got, want,
                                                                             equal_nan=True):
                report["mismatches"].append(f"pass {report['passes']}: leaf of shape "
                                            f"{tuple(want.shape)}: expected {want!r}, got {got!r}")
        return result

    walk.run = checked
    alias_torch()
    sys.argv = [str(case)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            runpy.run_path(str(case), run_name="__main__")
        except BaseException:     # a case may end in PyTorch's error on purpose
            pass
    return report


def run_forked(case: Path) -> dict:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:                  # the child: never returns into pytest
        os.close(read)
        code = 0
        try:
            with tempfile.TemporaryDirectory() as cwd:
                os.chdir(cwd)
                sys.stdout = sys.stderr = io.StringIO()   # the program's prints
                report = _compare(case)
            os.write(write, json.dumps(report).encode())
        except BaseException as e:  # reported to the parent
            os.write(write, json.dumps({"error": repr(e)}).encode())
            code = 1
        finally:
            os._exit(code)
    os.close(write)
    chunks = []
    while chunk := os.read(read, 1 << 16):
        chunks.append(chunk)
    os.close(read)
    os.waitpid(pid, 0)
    return json.loads(b"".join(chunks) or b'{"error": "the child died"}')


@pytest.mark.parametrize("case", CASES, ids=[f"{c.parent.parent.name}/{c.stem}" for c in CASES])
def test_the_fast_walk_gives_the_reference_gradients(case):
    report = run_forked(case)
    assert "error" not in report, report
    assert report["mismatches"] == [], "\n".join(report["mismatches"][:5])


def test_the_comparison_is_not_vacuous():
    # Many programs make no backward pass, or one with hooks, several roots or
    # autograd.grad; about half of them compare at least one (a sample, to keep this short)
    passes = [run_forked(case).get("passes", 0) for case in CASES[::20]]
    assert sum(p > 0 for p in passes) >= len(passes) // 3, passes
