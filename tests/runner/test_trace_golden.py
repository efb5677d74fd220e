"""Golden traces: the committed fixtures are exactly what the recorder produces today, and the
same program always gives the same bytes. A failure here means the trace changed: if that was
intended, run tests/fixtures/traces/regen.py and review the fixture diff."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from gradstep.runner import trace as T

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "traces"


def _regen():
    spec = importlib.util.spec_from_file_location("trace_regen", HERE / "regen.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


regen = _regen()


@pytest.mark.parametrize("name", regen.fixture_names())
def test_fixture_is_reproduced_byte_for_byte(name):
    path = HERE / f"{name}.json"
    assert path.exists(), f"no fixture for programs/{name}.py; run regen.py"
    new, old = regen.regenerate(name), path.read_bytes()
    if new != old:
        pairs = zip(new.decode().splitlines(), old.decode().splitlines())
        line, (got, want) = next(((i, p) for i, p in enumerate(pairs, 1) if p[0] != p[1]),
                                 (0, ("<length differs>", "")))
        pytest.fail(f"{name}.json changed at line {line} (event {line - 2}); if intended, run "
                    f"python tests/fixtures/traces/regen.py {name} and review the diff\n"
                    f"now:    {got[:400]}\nfixture: {want[:400]}")


def test_same_program_twice_gives_same_bytes():
    # s001_vjp_scalars draws from the RNG and builds tensors the fixture-free way; ids, names,
    # values and reprs must not depend on anything but the program
    source = (HERE / "programs" / "s001_vjp_scalars.py").read_text(encoding="utf-8")
    first = T.dump(regen.record_program(source, "main.py")[0])
    second = T.dump(regen.record_program(source, "main.py")[0])
    assert first == second


def test_stdout_is_what_the_program_printed():
    source = (HERE / "programs" / "s001_grad_accumulate.py").read_text(encoding="utf-8")
    trace, out, code = regen.record_program(source, "main.py")
    assert code == 0
    assert "".join(e["text"] for e in trace["events"] if e["kind"] == "stdout") == out
    assert out.splitlines()[0] == "None"


@pytest.mark.parametrize("name", ["s000_backward_twice_error", "s001_vjp_scalars",
                                  "training_loop_elided"])
def test_the_sandbox_records_the_same_bytes(name):
    # what the server sends is what the fixtures pin: the child process, its seeded RNG, its
    # stdout and warning plumbing and its error report give the very same trace
    from gradstep.runner import run_program
    source = (HERE / "programs" / f"{name}.py").read_text(encoding="utf-8")
    result = run_program(source, filename=f"{name}.py", trace=True)
    assert T.dump(result.trace) == (HERE / f"{name}.json").read_bytes()
    # and the bytes the server splices into its answer are those canonical bytes themselves
    assert result.trace_json == (HERE / f"{name}.json").read_bytes()
