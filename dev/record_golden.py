"""Record what real PyTorch prints for the golden cases (a development script, not a test).

usage: python dev/record_golden.py --python PATH_TO_TORCH_PYTHON [NAME ...]

Runs every `tests/golden/cases/NAME.py` (or just the named ones) with the given interpreter, one
that has real PyTorch installed, in a fresh temporary cwd, and writes next to it in
`tests/golden/expected/`: NAME.out (stdout, byte for byte), NAME.rc (the exit code), NAME.err
(the last stderr line, `Type: message`, only when it failed) and NAME.warn (one
`Category: message` line per warning printed, only when there were any). PyTorch's
"(Triggered internally at ...)" note is cut from warnings: it names a build machine's files.
The test suite never runs this script and never imports torch; review the diff it produces.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "golden"
# how Python's warnings module starts a warning on stderr: "path:line: Category: message"
WARNING_START = re.compile(r"^.+?:\d+: (\w*Warning): (.*)$")
TRIGGERED = re.compile(r"\s*\(Triggered internally at .*?\)\s*$")


def warnings_in(stderr: str) -> list[str]:
    """`Category: message` for each warning Python printed; continuation lines are joined.

    Example:
        >>> warnings_in("/t/a.py:3: UserWarning: two\\nlines. (Triggered internally at x.)\\n"
        ...             "  print(y)\\n")
        ['UserWarning: two lines.']
    """
    found, current = [], None
    for line in stderr.splitlines():
        m = WARNING_START.match(line)
        if m:
            current = [m.group(1), m.group(2)]
            found.append(current)
        elif current is not None and line and not line.startswith("  "):
            current[1] += " " + line.strip()    # a message that spans several lines
        else:
            current = None                      # the source line Python shows, or the end
    return [f"{cat}: {TRIGGERED.sub('', msg).strip()}" for cat, msg in found]


def last_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    return lines[-1].strip() if lines else ""


def record(python: str, case: Path, timeout: float,
           expected_dir: Path = GOLDEN / "expected") -> str:
    """Run one case and write its expected files (into `expected_dir`); a one-line summary."""
    with tempfile.TemporaryDirectory(prefix="golden-") as cwd:
        script = Path(cwd) / case.name
        shutil.copyfile(case, script)
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
        env["PYTHONHASHSEED"] = "0"
        p = subprocess.run([python, case.name], cwd=cwd, capture_output=True, env=env,
                           timeout=timeout)
    out = p.stdout.decode("utf-8")
    err = p.stderr.decode("utf-8", "replace")
    base = expected_dir / case.stem
    base.with_suffix(".out").write_text(out, encoding="utf-8")
    base.with_suffix(".rc").write_text(f"{p.returncode}\n", encoding="utf-8")
    for ext, text in (("err", last_line(err) if p.returncode else ""),
                      ("warn", "\n".join(warnings_in(err)))):
        path = base.with_suffix("." + ext)
        if text:
            path.write_text(text + "\n", encoding="utf-8")
        elif path.exists():
            path.unlink()
    return f"{case.stem}: rc {p.returncode}" + (f", {last_line(err)[:100]}" if p.returncode
                                                 else "")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--python", required=True, help="an interpreter with real PyTorch")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("names", nargs="*", help="case names (default: every case)")
    a = ap.parse_args()
    cases = sorted((GOLDEN / "cases").glob("*.py"))
    if a.names:
        known = {c.stem for c in cases}
        missing = [n for n in a.names if n not in known]
        if missing:
            sys.exit(f"no such case: {', '.join(missing)}")
        cases = [c for c in cases if c.stem in a.names]
    (GOLDEN / "expected").mkdir(exist_ok=True)
    for case in cases:
        print(record(a.python, case, a.timeout))
    return 0


if __name__ == "__main__":
    sys.exit(main())
