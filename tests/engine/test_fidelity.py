"""Every golden case (tests/oracle, tests/golden) run as `python -m gradstep.engine FILE` prints
what PyTorch 2.13 printed, exits as it did and raises and warns in its words.

One test per case, each in its own temporary cwd and forked process of one warm interpreter
(tests/warm_engine.py), so start-up is paid once per worker and `pytest -n 2` still spreads
them; a few cases run through the real command too. The comparison rules are in
`tests/fidelity.py`.
"""
import os
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
if str(TESTS) not in sys.path:   # tests/ is not a package; fidelity.py is shared with the runner
    sys.path.insert(0, str(TESTS))

import fidelity  # noqa: E402
from warm_engine import WarmEngine  # noqa: E402

ENGINE = [sys.executable, "-m", "gradstep.engine"]
CASES = fidelity.all_cases()


def _env() -> dict:
    # the case runs from a temporary cwd, so the checkout must be importable from anywhere
    env = dict(os.environ)
    root = str(TESTS.parent)
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "") if env.get(
        "PYTHONPATH") else root
    return env


def test_both_suites_are_present():
    suites = {case.parent.parent.name for case in CASES}
    assert suites == {"oracle", "golden"}
    assert sum(case.parent.parent.name == "oracle" for case in CASES) >= 51


@pytest.fixture(scope="module")
def engine():
    with WarmEngine(env=_env()) as warm:
        yield warm


@pytest.mark.parametrize("case", CASES, ids=[f"{c.parent.parent.name}/{c.stem}" for c in CASES])
def test_case_matches_pytorch(engine, case):
    problem = fidelity.judge(case, *engine.run(case))
    assert problem is None, f"{case.stem}: {problem}"


@pytest.mark.parametrize("case", CASES[::50], ids=lambda c: f"{c.parent.parent.name}/{c.stem}")
def test_case_matches_pytorch_through_the_command(case):
    problem = fidelity.check_case(ENGINE, case, timeout=120, env=_env())
    assert problem is None, f"{case.stem}: {problem}"


# ---- the comparator itself --------------------------------------------------------------


def test_exact_mode_wants_every_token_and_the_spacing():
    assert fidelity.same("tensor([1., 2.])\n", "tensor([1., 2.])\n", "exact") is None
    assert "token 3" in fidelity.same("tensor([1., 2.])", "tensor([1.5, 2.])", "exact")
    assert "spacing" in fidelity.same("tensor([ 1.,  2.])", "tensor([1., 2.])", "exact")
    assert "missing: ]" in fidelity.same("a ]", "a", "exact")


def test_addresses_are_wildcards_in_every_mode():
    want = "<MulBackward0 object at 0x7fa4c7b9f550>"
    assert fidelity.same(want, "<MulBackward0 object at 0x1>", "exact") is None
    assert fidelity.same(want, "<AddBackward0 object at 0x7fa4c7b9f550>", "exact")


def test_numeric_and_structure_modes_loosen_only_numbers():
    assert fidelity.same("loss 2.927647", "loss 2.927650", "numeric") is None
    assert fidelity.same("loss 2.9276", "loss 2.9300", "numeric")
    assert fidelity.same("loss 2.9276", "loss 17", "structure") is None
    assert fidelity.same("loss 2.9276", "gain 2.9276", "structure")


def _case(tmp_path, name, source, out="", rc=0, err="", warn=""):
    (tmp_path / "cases").mkdir(exist_ok=True)
    (tmp_path / "expected").mkdir(exist_ok=True)
    case = tmp_path / "cases" / f"{name}.py"
    case.write_text("# compare: exact\n" + source)
    for ext, text in (("out", out), ("rc", f"{rc}\n"), ("err", err), ("warn", warn)):
        if text:
            (tmp_path / "expected" / f"{name}.{ext}").write_text(text)
    return case


PLAIN = [sys.executable]   # the comparator works with any command; plain Python here


def test_check_case_accepts_a_matching_run_in_a_fresh_cwd(tmp_path):
    case = _case(tmp_path, "cwd", "import os\nprint(os.listdir('.'))\n", out="[]\n")
    assert fidelity.check_case(PLAIN, case) is None


def test_check_case_compares_exit_code_and_last_error_line(tmp_path):
    case = _case(tmp_path, "boom", "raise RuntimeError('bad shape 3')\n", rc=1,
                 err="RuntimeError: bad shape 3\n")
    assert fidelity.check_case(PLAIN, case) is None
    wrong = _case(tmp_path, "boom2", "raise ValueError('bad shape 3')\n", rc=1,
                  err="RuntimeError: bad shape 3\n")
    assert "error type" in fidelity.check_case(PLAIN, wrong)
    silent = _case(tmp_path, "boom3", "pass\n", rc=1, err="RuntimeError: x\n")
    assert "exit code 0, expected 1" in fidelity.check_case(PLAIN, silent)


def test_check_case_wants_each_expected_warning_on_stderr(tmp_path):
    warn = "UserWarning: Converting a tensor with requires_grad=True to a scalar\n"
    src = ("import warnings\n"
           "warnings.warn('Converting a tensor with requires_grad=True to a scalar')\n")
    assert fidelity.check_case(PLAIN, _case(tmp_path, "w1", src, warn=warn)) is None
    problem = fidelity.check_case(PLAIN, _case(tmp_path, "w2", "pass\n", warn=warn))
    assert problem.startswith("warning missing")


def test_file_placeholder_and_timeout(tmp_path):
    case = _case(tmp_path, "slow", "import time\ntime.sleep(5)\n")
    assert fidelity.command_for(["run", "{file}", "-q"], case) == ["run", str(case), "-q"]
    assert fidelity.command_for([os.path.join("bin", "run")], case) == [
        os.path.abspath(os.path.join("bin", "run")), str(case)]
    assert "no answer" in fidelity.check_case(PLAIN, case, timeout=0.5)


def test_an_unrecorded_case_says_how_to_record_it(tmp_path):
    case = tmp_path / "cases" / "gf_new_op.py"
    case.parent.mkdir()
    case.write_text("print(1)\n")
    problem = fidelity.judge(case, "1\n", "", 0)
    assert "no recording" in problem and "dev/record_golden.py" in problem
    assert "gf_new_op" in problem
