"""Golden-output comparison: does a command print what real PyTorch 2.13 printed?

A case is `cases/NAME.py` with header comments (`# compare: exact|numeric|structure`) next to
`expected/NAME.out` (stdout), `.rc` (exit code, 0 when absent), `.err` (the last stderr line,
`Type: message`, when it failed) and `.warn` (one warning a line). The rules are those of the
shared oracle's `compare.py`:

- stdout is compared token by token; `0x…` object addresses always match each other;
  `numeric` lets numbers differ by 1e-5 + 1e-4·|expected|, `structure` lets any number match,
  and `exact` also wants the same spacing and line breaks;
- the exit code must match; when it is non-zero the last non-empty stderr line must carry the
  same exception type and (numerically compared) message;
- every expected warning's text must appear somewhere on stderr.

The command is any argv (`[sys.executable, "-m", "gradstep.engine"]`, `["gradstep", "run"]`); the case
path is appended, or substituted for a `{file}` item. Standard library only.

Example:
    >>> same("tensor([1.0000])", "tensor([1.00001])", "numeric") is None
    True
    >>> same("tensor([1.])", "tensor([2.])", "exact")
    "token 3: expected '1.', got '2.' (near: tensor ( [ 1. ] ))"
"""
from __future__ import annotations

import argparse
import shlex
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

TOKEN = re.compile(r"0x[0-9a-fA-F]+|[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|\w+|\S")
NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?$")
ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
MODES = ("exact", "numeric", "structure")
HERE = Path(__file__).resolve().parent
SUITES = (HERE / "oracle", HERE / "golden")


def header(case: Path) -> dict:
    """The `# compare:` / `# visibility:` / `# topic:` / `# source:` comments of a case."""
    meta = {"compare": "exact", "visibility": "hidden"}
    for line in case.read_text(encoding="utf-8").splitlines()[:12]:
        m = re.match(r"#\s*(compare|visibility|topic|source):\s*(\S+)", line)
        if m:
            meta[m.group(1)] = m.group(2)
    if meta["compare"] not in MODES:
        raise ValueError(f"{case.name}: unknown compare mode {meta['compare']!r}")
    return meta


def _numbers_match(x: str, y: str, mode: str) -> bool:
    if mode == "structure":
        return True
    if mode == "numeric":
        fx, fy = float(x), float(y)
        return abs(fx - fy) <= 1e-5 + 1e-4 * abs(fx)
    return False


def same(expected: str, got: str, mode: str) -> str | None:
    """The first difference between two texts under a compare mode, or None if they match."""
    want, have = TOKEN.findall(expected), TOKEN.findall(got)
    for i, (x, y) in enumerate(zip(want, have)):
        if x == y or (x.startswith("0x") and y.startswith("0x")):
            continue
        if NUMBER.match(x) and NUMBER.match(y) and _numbers_match(x, y, mode):
            continue
        near = " ".join(want[max(0, i - 4):i + 3])
        return f"token {i}: expected {x!r}, got {y!r} (near: {near})"
    if len(want) != len(have):
        if len(have) > len(want):
            return (f"expected {len(want)} tokens, got {len(have)}; extra: "
                    + " ".join(have[len(want):len(want) + 6]))
        return (f"expected {len(want)} tokens, got {len(have)}; missing: "
                + " ".join(want[len(have):len(have) + 6]))
    if mode == "exact" and ADDRESS.sub("0x", expected) != ADDRESS.sub("0x", got):
        return "same tokens, different spacing or line breaks"
    return None


@dataclass
class Expected:
    """What PyTorch did for one case."""

    out: str
    rc: int
    err: str
    warnings: list

    @classmethod
    def load(cls, case: Path) -> "Expected":
        base = case.parent.parent / "expected" / case.stem

        def read(ext: str) -> str:
            p = base.with_suffix("." + ext)
            return p.read_text(encoding="utf-8") if p.exists() else ""

        warnings = [w for w in read("warn").splitlines() if w.strip()]
        return cls(read("out"), int(read("rc").strip() or 0), read("err").strip(), warnings)


def last_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1].strip() if lines else ""


def judge(case: Path, stdout: str, stderr: str, rc: int) -> str | None:
    """Compare one run of `case` with its expected files; a sentence on the first mismatch."""
    mode = header(case)["compare"]
    recorded = case.parent.parent / "expected" / case.stem
    if not any(recorded.with_suffix(ext).exists() for ext in (".out", ".rc")):
        return (f"no recording of PyTorch's output for {case.stem}: run `python "
                f"dev/record_golden.py --python <a PyTorch 2.13 interpreter> {case.stem}` "
                "(CONTRIBUTING.md, \"Add an op\", step 6)")
    want = Expected.load(case)
    problem = same(want.out, stdout, mode)
    if problem:
        return "stdout " + problem
    if rc != want.rc:
        return f"exit code {rc}, expected {want.rc}; stderr: {last_line(stderr)[:200]}"
    if want.rc:
        got = last_line(stderr)
        if want.err.split(":")[0] != got.split(":")[0]:
            return f"error type: expected {want.err[:120]!r}, got {got[:160]!r}"
        problem = same(want.err, got, "structure" if mode == "structure" else "numeric")
        if problem:
            return "error message " + problem
    flat = " ".join(stderr.split())
    for line in want.warnings:
        # the category and the location differ between runs; the message is what must appear
        message = " ".join(line.split(": ", 1)[-1].split())[:50]
        if message and message not in flat:
            return f"warning missing on stderr: {message}"
    return None


def command_for(argv: list, case: Path) -> list:
    """The argv to run for `case`: `{file}` replaced, or the case path appended."""
    argv = list(argv)
    if argv and os.sep in argv[0] and not os.path.isabs(argv[0]):
        # the case runs in a temporary cwd, where a relative program path would not resolve
        argv[0] = os.path.abspath(argv[0])
    if any("{file}" in part for part in argv):
        return [part.replace("{file}", str(case)) for part in argv]
    return [*argv, str(case)]


def run_case(argv: list, case: Path, timeout: float = 120, env: dict | None = None):
    """Run `argv` on `case` in a fresh temporary cwd; returns (stdout, stderr, exit code).

    A timeout is reported as exit code -9 with a note on stderr, so `judge` explains it.
    """
    with tempfile.TemporaryDirectory(prefix="fidelity-") as cwd:
        try:
            p = subprocess.run(command_for(argv, case), cwd=cwd, capture_output=True,
                               timeout=timeout, env=env)
        except subprocess.TimeoutExpired:
            return "", f"TimeoutError: no answer in {timeout} s", -9
    decode = lambda b: b.decode("utf-8", "replace")  # noqa: E731
    return decode(p.stdout), decode(p.stderr), p.returncode


def check_case(argv: list, case: Path, timeout: float = 120, env: dict | None = None):
    """Run and judge one case: None when it matches PyTorch, else why not."""
    return judge(case, *run_case(argv, case, timeout, env))


def all_cases(suites=SUITES) -> list:
    """Every case file of the given suite directories, sorted by suite then name."""
    return [case for suite in suites for case in sorted((Path(suite) / "cases").glob("*.py"))]


def main(args: list | None = None) -> int:
    """`python tests/fidelity.py [--cmd 'gradstep run {file}'] [NAME ...]`: a line per
    failing case and a score."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cmd", default=f"{sys.executable} -m gradstep.engine {{file}}")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("names", nargs="*")
    a = ap.parse_args(args)
    argv = shlex.split(a.cmd)
    cases = [c for c in all_cases() if not a.names or c.stem in a.names]
    failed = 0
    for case in cases:
        problem = check_case(argv, case, a.timeout)
        if problem:
            failed += 1
            print(f"FAIL {case.parent.parent.name}/{case.stem}: {problem}")
    print(f"fidelity: {len(cases) - failed}/{len(cases)} cases match")
    return 0 if cases and not failed else 1


if __name__ == "__main__":
    sys.exit(main())
