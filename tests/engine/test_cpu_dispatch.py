"""Bits that must not depend on which vectorised kernels numpy picks for this CPU.

numpy dispatches its float64 exp/log/power kernels by the CPU's features at run time
(NOTE [bits that depend on the CPU] in engine/_libm.py). Two kinds of check:
- the engine's C-library routes against `math` over random inputs: on an AVX-512 CPU these
  fail as soon as an op goes back to numpy's kernel (logspace on `np.power` fails the first);
- the golden cases that print values to the last bit, run once more with numpy's AVX-512
  kernels switched off (`NPY_DISABLE_CPU_FEATURES`), so a case that passes only on the CPU
  the test suite happens to run on is caught on an AVX-512 machine.
"""
import math
import os
import random
import sys
from pathlib import Path

import numpy as np
import pytest

import gradstep.engine as torch
from gradstep.engine import _libm

TESTS = Path(__file__).resolve().parents[1]
if str(TESTS) not in sys.path:   # tests/ is not a package; fidelity.py is shared
    sys.path.insert(0, str(TESTS))

import fidelity  # noqa: E402
from warm_engine import WarmEngine  # noqa: E402


def _wide_kernels_off() -> str:
    """NPY_DISABLE_CPU_FEATURES naming every dispatch target above AVX2 this numpy has."""
    from numpy._core import _multiarray_umath as umath
    return " ".join(t for t in umath.__cpu_dispatch__ if "512" in t or t == "X86_V4")


def _env(**extra) -> dict:
    env = dict(os.environ, **extra)
    root = str(TESTS.parent)
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


# ---- the engine's C-library routes -------------------------------------------------------

def test_logspace_powers_are_the_c_librarys():
    rng = random.Random(27)
    for _ in range(400):
        base = rng.uniform(0.05, 20.0)
        start, end = rng.uniform(-30, 30), rng.uniform(-30, 30)
        # with two steps the exponents are start and end exactly
        got = torch.logspace(start, end, 2, base=base, dtype=torch.float64).tolist()
        assert got == [math.pow(base, start), math.pow(base, end)], (base, start, end)


def test_logspace_keeps_c_answers_where_math_raises():
    big = torch.logspace(0, 2000, 3, base=-2, dtype=torch.float64).tolist()
    assert big[0] == 1.0 and big[1] == math.pow(-2.0, 1000.0) and big[2] == math.inf
    assert math.isnan(torch.logspace(0, 1, 3, base=-2).tolist()[1])
    assert torch.logspace(-1000, 0, 2, dtype=torch.float64).tolist() == [0.0, 1.0]


@pytest.mark.parametrize("fn", [math.exp, math.log, math.log1p, math.expm1, math.pow])
def test_apply_gives_maths_bits(fn):
    rng = np.random.default_rng(5)
    x = rng.uniform(0.001, 30.0, 5000)
    args = (rng.uniform(0.1, 10.0, 5000), rng.uniform(-8.0, 8.0, 5000)) if fn is math.pow else (x,)
    want = [fn(*a) for a in zip(*(a.tolist() for a in args))]
    assert _libm.apply(fn, *args).tolist() == want


def test_float64_normal_and_exponential_use_the_c_library():
    torch.manual_seed(3)
    u = torch.rand(32, dtype=torch.float64).numpy()
    torch.manual_seed(3)
    drawn = torch.randn(16, dtype=torch.float64).tolist()
    # Box-Muller on one block of 16: element j pairs u[j] with u[j + 8]
    u1, u2 = 1 - u[:8], u[8:16]
    radius = [math.sqrt(-2 * math.log(a)) for a in u1.tolist()]
    want = ([r * math.cos(2 * math.pi * b) for r, b in zip(radius, u2.tolist())]
            + [r * math.sin(2 * math.pi * b) for r, b in zip(radius, u2.tolist())])
    assert drawn == want
    torch.manual_seed(4)
    u = torch.rand(64, dtype=torch.float64).tolist()
    torch.manual_seed(4)
    got = torch.empty(64, dtype=torch.float64).exponential_(3.0).tolist()
    assert got == [-1.0 / 3.0 * math.log1p(-v) for v in u]


# ---- the other dispatch path --------------------------------------------------------------

_CANARY = """
import math, numpy as np
rng = np.random.default_rng(0)
b, e = rng.uniform(0.1, 10, 20000), rng.uniform(-5, 5, 20000)
x = rng.uniform(-20, 20, 20000)
bad = int((np.power(b, e) != np.array([math.pow(p, q) for p, q in zip(b, e)])).sum())
bad += int((np.exp(x) != np.array([math.exp(v) for v in x])).sum())
print(bad)
"""


def test_switching_the_wide_kernels_off_reaches_the_c_librarys(narrow_engine, tmp_path):
    """Without this the rerun below would prove nothing: in the interpreter the cases run in,
    numpy's float64 exp and power give the C library's bits (on any x86-64 CPU)."""
    canary = tmp_path / "canary.py"
    canary.write_text(_CANARY, encoding="utf-8")
    out, err, code = narrow_engine.run(canary)
    assert code == 0, err
    assert out.strip() == "0"


def _prints_last_bits(case: Path) -> bool:
    text = case.read_text(encoding="utf-8")
    return any(s in text for s in (".tolist()", ".item()", "precision="))


FULL_PRECISION = [c for c in fidelity.all_cases() if _prints_last_bits(c)]


def test_the_rerun_has_cases():
    assert len(FULL_PRECISION) >= 40


@pytest.fixture(scope="module")
def narrow_engine():
    """One warm interpreter started with the wide kernels off: numpy reads the variable when
    it loads, and every case's forked child inherits the choice (tests/warm_engine.py)."""
    with WarmEngine(env=_env(NPY_DISABLE_CPU_FEATURES=_wide_kernels_off())) as warm:
        yield warm


@pytest.mark.parametrize("case", FULL_PRECISION,
                         ids=[f"{c.parent.parent.name}/{c.stem}" for c in FULL_PRECISION])
def test_case_matches_pytorch_without_wide_kernels(narrow_engine, case):
    problem = fidelity.judge(case, *narrow_engine.run(case))
    assert problem is None, f"{case.stem}: {problem}"
