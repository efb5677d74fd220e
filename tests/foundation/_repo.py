"""Small readers the foundation tests share: the repository root, the Dockerfile's
instructions, the README's tables, and the set of configuration variables the code reads.

Kept in one module so that each test file states what it checks, not how it parses.
"""
from __future__ import annotations

import dataclasses
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent


def tool(name: str) -> str:
    """A console script installed into the running test environment (e.g. hadolint)."""
    path = VENV_BIN / name
    assert path.exists(), f"{name} is not installed next to {sys.executable}; " \
                          "run ./dev.sh test, which installs the test tools"
    return str(path)


def tracked_files() -> list[str]:
    """Files git knows about, plus new ones not ignored: what a clean clone would contain
    once they are committed."""
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return sorted({line for line in out.splitlines() if (ROOT / line).is_file()})


@dataclasses.dataclass
class Instruction:
    keyword: str        # upper-case, e.g. "RUN"
    args: str           # the rest of the instruction, continuation lines joined
    stage: int          # index of the FROM it belongs to


def dockerfile_instructions(path: Path = ROOT / "Dockerfile") -> list[Instruction]:
    """Instructions of a Dockerfile, with comments dropped and `\\` continuations joined."""
    result: list[Instruction] = []
    stage = -1
    pending = ""
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if pending and line.startswith("#"):     # comment lines inside a continued RUN
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        text = pending + line
        pending = ""
        keyword, _, args = text.partition(" ")
        keyword = keyword.upper()
        if keyword == "FROM":
            stage += 1
        result.append(Instruction(keyword, args.strip(), stage))
    return result


def env_of(instructions: list[Instruction], stage: int) -> dict[str, str]:
    """ENV key=value pairs set in one stage."""
    env: dict[str, str] = {}
    for ins in instructions:
        if ins.keyword == "ENV" and ins.stage == stage:
            for word in shlex.split(ins.args):
                key, _, value = word.partition("=")
                env[key] = value
    return env


def markdown_table_rows(text: str) -> list[list[str]]:
    """Cells of every Markdown table row (header and separator rows included)."""
    rows = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("|") and line.endswith("|"):
            rows.append([cell.strip() for cell in line[1:-1].split("|")])
    return rows


UNKNOWN_DEFAULT = object()      # a variable read directly from os.environ


def config_variables() -> dict[str, object]:
    """Every GRADSTEP_* variable the code reads, with its default where the code declares one.

    The server's settings (app/settings.py, pydantic-settings with the GRADSTEP_ prefix), the
    sandbox limits (runner/limits.py, GRADSTEP_LIMIT_<FIELD>), and any other full
    `GRADSTEP_NAME` the packages spell out (read straight from os.environ; default unknown).
    """
    from gradstep.app.settings import Settings
    from gradstep.runner.limits import Limits

    found: dict[str, object] = {}
    for name, field in Settings.model_fields.items():
        found["GRADSTEP_" + name.upper()] = field.default
    for field in dataclasses.fields(Limits):
        found["GRADSTEP_LIMIT_" + field.name.upper()] = field.default
    for package in ("engine", "runner", "app"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for name in re.findall(r"\bGRADSTEP_[A-Z0-9_]*[A-Z0-9]\b", path.read_text()):
                found.setdefault(name, UNKNOWN_DEFAULT)
    return found


def strip_code(cell: str) -> str:
    return re.sub(r"`([^`]*)`", r"\1", cell).strip()
