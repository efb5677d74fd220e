"""Record what real PyTorch prints for every lesson's program (a development script, not a test).

usage: python dev/record_lessons.py --python PATH_TO_TORCH_PYTHON [LESSON_ID ...]

Lesson programs live inside `app/lessons/*.toml`; each is written to a temporary `ID.py` and
recorded exactly like a golden case (dev/record_golden.py), into `tests/lessons/expected/`.
Review the diff it produces: a changed lesson output is a deliberate change.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "dev"))

from record_golden import record  # noqa: E402

from gradstep.app.services.lessons import load_lessons  # noqa: E402

EXPECTED = ROOT / "tests" / "lessons" / "expected"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--python", required=True, help="an interpreter with real PyTorch")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("ids", nargs="*", help="lesson ids (default: every lesson)")
    args = ap.parse_args()
    EXPECTED.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="lessons-") as tmp:
        for lesson in load_lessons():
            if args.ids and lesson.id not in args.ids:
                continue
            case = Path(tmp) / f"{lesson.id}.py"
            case.write_text(lesson.program, encoding="utf-8")
            print(record(args.python, case, args.timeout, expected_dir=EXPECTED))
    return 0


if __name__ == "__main__":
    sys.exit(main())
