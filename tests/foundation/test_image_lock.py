"""The container image's lock, image-requirements.txt: it agrees with pyproject.toml, its check
(`python dev/lock_image.py --check`, in `./dev.sh lint`) fails when they disagree, and the
Dockerfile installs from it and nothing else.
"""
from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys

import pytest

from ._repo import ROOT, dockerfile_instructions

SCRIPT = ROOT / "dev" / "lock_image.py"
LOCK_NAME = "image-requirements.txt"


def load_script():
    spec = importlib.util.spec_from_file_location("lock_image", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


lock_image = load_script()
PYPROJECT = (ROOT / "pyproject.toml").read_text()
LOCK = (ROOT / LOCK_NAME).read_text()


def test_the_lock_agrees_with_pyproject():
    assert lock_image.disagreements(PYPROJECT, LOCK) == []


def test_every_runtime_dependency_and_the_build_backend_is_pinned_with_hashes():
    _, _, pins = lock_image.parse_lock(LOCK)
    for name in ("numpy", "fastapi", "uvicorn", "pygraphviz", "pyseccomp", "landlock",
                 "setuptools"):
        version, hashes = pins[name]
        assert version and hashes, name
    # a package with compiled code has a wheel per platform, so one hash for each
    assert len(pins["numpy"][1]) == len(lock_image.ARCHES)


def replace_once(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


@pytest.mark.parametrize("change, expected", [
    # a new lower bound the locked version does not meet
    (lambda p, lk: (replace_once(p, '"numpy>=1.26,<3"', '"numpy>=99"'), lk),
     "'numpy>=99' is in pyproject.toml but the lock was not made from it"),
    (lambda p, lk: (replace_once(p, '"numpy>=1.26,<3"', '"numpy>=99"'), lk),
     "'numpy>=99' does not allow the locked numpy=="),
    # a dependency added without locking
    (lambda p, lk: (replace_once(p, '"jinja2>=3.1,<4",', '"jinja2>=3.1,<4", "rich>=13",'), lk),
     "'rich>=13' has no pin in the lock"),
    # a dependency removed from pyproject.toml but still locked as an input
    (lambda p, lk: (replace_once(p, '    "graphviz>=0.20,<1",\n', ""), lk),
     "'graphviz>=0.20,<1' was locked but is no longer in pyproject.toml"),
    # the build backend moved on
    (lambda p, lk: (replace_once(p, '"setuptools>=77"', '"setuptools>=999"'), lk),
     "build requirement 'setuptools>=999' does not allow the locked setuptools=="),
    # a pin edited by hand, without its hash
    (lambda p, lk: (p, re.sub(r"(?m)^(h11==\S+) \\\n    --hash=sha256:\w+", r"\1", lk)),
     "has no sha256 hash"),
])
def test_a_disagreement_is_reported(change, expected):
    pyproject, lock = change(PYPROJECT, LOCK)
    found = lock_image.disagreements(pyproject, lock)
    assert any(expected in problem for problem in found), found


def test_a_dependency_for_another_system_needs_no_pin():
    # the image is Linux: a Windows-only requirement is an input, never installed there
    pyproject = replace_once(PYPROJECT, '"jinja2>=3.1,<4",',
                             '"jinja2>=3.1,<4", "colorama>=0.4; sys_platform == \'win32\'",')
    lock = replace_once(LOCK, "# input: jinja2>=3.1,<4\n",
                        "# input: jinja2>=3.1,<4\n"
                        "# input: colorama>=0.4; sys_platform == 'win32'\n")
    assert lock_image.disagreements(pyproject, lock) == []


def run_check(root) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(root / "dev" / "lock_image.py"), "--check"],
                          capture_output=True, text=True, timeout=60)


def test_the_lint_step_passes_here_and_fails_on_a_planted_disagreement(tmp_path):
    assert run_check(ROOT).returncode == 0
    (tmp_path / "dev").mkdir()
    shutil.copy(SCRIPT, tmp_path / "dev" / "lock_image.py")
    shutil.copy(ROOT / LOCK_NAME, tmp_path / LOCK_NAME)
    (tmp_path / "pyproject.toml").write_text(
        replace_once(PYPROJECT, '"uvicorn>=0.55,<0.56"', '"uvicorn>=0.56,<0.57"'))
    planted = run_check(tmp_path)
    assert planted.returncode == 1
    assert "does not allow the locked uvicorn==" in planted.stdout
    assert "run `python dev/lock_image.py`" in planted.stdout


def test_the_image_installs_from_the_lock_alone():
    runs = [ins.args for ins in dockerfile_instructions() if ins.keyword == "RUN"]
    installs = [cmd for args in runs for cmd in args.split("&&") if "pip install" in cmd]
    assert len(installs) == 2, installs
    from_lock, project = (" ".join(cmd.split()) for cmd in installs)
    # every package from the lock, hash-checked, with no resolution of its own
    for flag in ("--require-hashes", "--no-deps", f"-r {LOCK_NAME}"):
        assert flag in from_lock, from_lock
    # then gradstep itself, built with the locked setuptools and nothing from the index
    for flag in ("--no-deps", "--no-build-isolation", "--no-index"):
        assert flag in project, project
    copies = [ins.args for ins in dockerfile_instructions() if ins.keyword == "COPY"]
    assert any(LOCK_NAME in c.split() for c in copies)
