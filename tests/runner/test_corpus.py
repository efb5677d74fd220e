"""The hostile and honest corpora through the real sandbox.

Each hostile program (tests/runner/hostile/*.py) declares what should stop it (`# expect:`
refused, limit or exception) and what it is after (`# goal:`). Placeholders give it a marker
path to create and a secret file to read; the test checks the run ended with a clear error of
the expected kind AND that no marker exists, no secret leaked and nothing printed PWNED.
Each honest program (honest/*.py) must run and print exactly what it prints when executed
directly on the engine, without the sandbox.
"""
import json
import os
import pathlib
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).parent
HOSTILE = sorted((HERE / "hostile").glob("*.py"))
HONEST = sorted((HERE / "honest").glob("*.py"))
SECRET = "gradstep-canary-7f3a9c"


def _header(path, key):
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines()[:3]:
        if line.startswith(f"# {key}:"):
            return line.split(":", 1)[1].strip()
    raise AssertionError(f"{path.name} has no '# {key}:' header")


@pytest.fixture()
def canaries(tmp_path, monkeypatch):
    secret_file = tmp_path / "secret.txt"
    secret_file.write_text(SECRET)
    monkeypatch.setenv("GRADSTEP_TEST_SECRET", SECRET)
    return tmp_path / "marker", secret_file


def test_corpora_are_big_enough():
    assert len(HOSTILE) >= 60
    assert len(HONEST) >= 15


# Escapes run both untraced and traced (the recorder sees every op); resource bombs, which
# take a second or two each, run untraced only.
CASES = [(p, False) for p in HOSTILE] + [(p, True) for p in HOSTILE
                                         if not p.name.startswith("dos")]


@pytest.mark.parametrize("path,trace", CASES,
                         ids=lambda v: v.stem if isinstance(v, pathlib.Path) else
                         ("traced" if v else "untraced"))
def test_hostile_program_is_stopped(path, trace, pool, canaries):
    marker, secret_file = canaries
    source = path.read_bytes().decode("utf-8")
    source = source.replace("@MARKER@", str(marker)).replace("@SECRET_FILE@", str(secret_file))
    expected = set(_header(path, "expect").split(","))
    result = pool.run(source, filename="main.py", trace=trace)
    assert result.exit_code == 1, result.stdout[-300:]
    assert result.error is not None
    assert result.error["kind"] in expected, result.error
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith(result.error["type"] + ":"), last
    if result.error["kind"] == "limit":
        assert result.error["limit"]
    # the goal did not happen
    assert not marker.exists()
    everything = result.stdout + result.stderr + json.dumps(result.error)
    assert SECRET not in everything
    assert "PWNED" not in result.stdout
    if trace:
        from gradstep.runner import trace as trace_format
        trace_format.validate(result.trace)
        assert SECRET not in json.dumps(result.trace)
    # and the sandbox answers the next request normally
    follow = pool.run("print(6 * 7)\n", trace=False)
    assert (follow.stdout, follow.exit_code) == ("42\n", 0)


def test_the_pool_still_serves_after_the_corpus(pool):
    result = pool.run("print(sum([1, 2, 3]))\n", trace=False)
    assert (result.stdout, result.exit_code, result.error) == ("6\n", 0, None)


_REFERENCE = r"""
import json, random, sys, warnings, io, contextlib
import numpy as np
from gradstep import engine
from gradstep.engine.__main__ import alias_torch
alias_torch()          # the engine's own dev harness: torch and every submodule it has
out = {}
for path in sys.argv[1:]:
    random.seed(0); np.random.seed(0)
    if hasattr(engine, "manual_seed"):
        engine.manual_seed(0)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            code = compile(open(path, encoding="utf-8").read(), path, "exec")
            exec(code, {"__name__": "__main__"})
            status = 0
        except Exception as e:
            status = repr(e)
    out[path] = [buf.getvalue(), status]
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def reference_outputs():
    """What each honest program prints on the bare engine, all in one interpreter."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    proc = subprocess.run([sys.executable, "-c", _REFERENCE, *map(str, HONEST)],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)


@pytest.mark.parametrize("path", HONEST, ids=lambda p: p.stem)
def test_honest_program_runs_unchanged(path, pool, reference_outputs):
    expected, status = reference_outputs[str(path)]
    assert status == 0, f"the program fails even without the sandbox: {status}"
    result = pool.run(path.read_text(encoding="utf-8"), filename=str(path), trace=False)
    assert result.error is None, result.stderr
    assert result.exit_code == 0
    assert result.stdout == expected
