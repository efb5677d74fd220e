"""The robustness suite: fuzzing, schema-driven API checks, load and faults.

Quick by default, for CI; `GRADSTEP_LONG_TESTS=1` selects the long form (more examples,
a 60-second load run) — see docs/security.md.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
for folder in (TESTS, TESTS / "app", Path(__file__).resolve().parent):
    if str(folder) not in sys.path:           # live_server, app_testing, programs
        sys.path.insert(0, str(folder))

LONG = os.environ.get("GRADSTEP_LONG_TESTS") == "1"


def scale(quick: int, long: int) -> int:
    """A count for the quick (CI) or the long form."""
    return long if LONG else quick
