"""The import checks of `./dev.sh lint` (dev/import_cycles.py --check) pass on this checkout
and fail on a planted violation: a lower layer importing a higher one, by its installed name
or its bare folder name, at load time or inside a function; a new import inside an engine
function; a new load-time cycle. docs/architecture.md prints the script's figures. Editors
and mypy read the layers through dev/typecheck/gradstep, whose links must match the folders
pyproject.toml maps."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from ._repo import ROOT

SCRIPT = ROOT / "dev" / "import_cycles.py"


def check(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), "--check", "--root", str(root)],
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> Path:
    """A copy of the layers' Python files and the ratchet, to plant faults in."""
    root = tmp_path_factory.mktemp("checkout")
    for layer in ("engine", "runner", "app", "gradstep"):
        shutil.copytree(ROOT / layer, root / layer,
                        ignore=lambda _d, names: [n for n in names
                                                  if n == "__pycache__" or n.endswith(".pyc")])
    (root / "dev").mkdir()
    shutil.copy(ROOT / "dev" / "import_ratchet.json", root / "dev")
    return root


@pytest.fixture
def copy(pristine, tmp_path) -> Path:
    root = tmp_path / "checkout"
    shutil.copytree(pristine, root)
    return root


def plant(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + "\n" + text + "\n", encoding="utf-8")


def test_the_checkout_passes_and_an_untouched_copy_too(pristine):
    for root in (ROOT, pristine):
        result = check(root)
        assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("where, line", [
    ("engine/dtypes.py", "from gradstep.runner import sandbox"),
    ("engine/ops/_op.py", "def _late():\n    from gradstep.app.services import layout"),
    ("engine/size.py", "import runner.trace"),
    ("runner/trace.py", "from gradstep.app import cli"),
    ("runner/limits.py", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                         "    from gradstep.app.settings import Settings"),
    ("app/cli.py", "def _up():\n    from gradstep.__main__ import main"),
])
def test_a_lower_layer_importing_a_higher_one_fails(copy, where, line):
    plant(copy / where, line)
    result = check(copy)
    assert result.returncode == 1
    assert f"{where}:" in result.stdout and "imports" in result.stdout, result.stdout


def test_reading_the_version_from_the_package_is_allowed(copy):
    plant(copy / "engine/dtypes.py", "from gradstep import __version__")
    assert check(copy).returncode == 0


def test_one_more_import_inside_an_engine_function_fails(copy):
    plant(copy / "engine/dtypes.py", "def _late():\n    from .tensor import Tensor\n"
                                     "    return Tensor")
    result = check(copy)
    assert result.returncode == 1
    assert "engine: function level imports is" in result.stdout, result.stdout


def test_a_new_load_time_cycle_fails(copy):
    # size imports nothing of the engine's above it; a top-level import of tensor closes a
    # loop through tensor's own import of size
    plant(copy / "engine/size.py", "from . import tensor")
    result = check(copy)
    assert result.returncode == 1
    assert "load time cycles" in result.stdout, result.stdout


def test_a_shrinking_figure_passes_and_says_to_lower_the_ratchet(copy):
    ratchet = copy / "dev" / "import_ratchet.json"
    figures = json.loads(ratchet.read_text())
    figures["engine"]["function_level_imports"] += 1
    ratchet.write_text(json.dumps(figures))
    result = check(copy)
    assert result.returncode == 0
    assert "lower it in dev/import_ratchet.json" in result.stdout


def test_the_architecture_page_prints_the_scripts_figures():
    figures = subprocess.run([sys.executable, str(SCRIPT), "--doc"], capture_output=True,
                             text=True, timeout=300, check=True).stdout.strip()
    page = " ".join((ROOT / "docs" / "architecture.md").read_text(encoding="utf-8").split())
    assert figures in page, (f"docs/architecture.md is out of date; paste in the output of "
                             f"`python dev/import_cycles.py --doc`:\n{figures}")


def test_the_type_checkers_view_maps_the_folders_pyproject_maps():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    mapped = pyproject["tool"]["setuptools"]["package-dir"]
    view = ROOT / "dev" / "typecheck" / "gradstep"
    for package in ("gradstep.engine", "gradstep.runner", "gradstep.app"):
        link = view / package.split(".")[1]
        assert link.is_symlink() and not os.path.isabs(os.readlink(link))
        assert link.resolve() == (ROOT / mapped[package]).resolve()
    assert (view / "__init__.py").resolve() == (ROOT / "gradstep" / "__init__.py").resolve()
    config = json.loads((ROOT / "pyrightconfig.json").read_text())
    assert "dev/typecheck" in config["extraPaths"]
    assert "dev/typecheck" in config["exclude"]
    mypy = pyproject["tool"]["mypy"]
    assert mypy["mypy_path"] == "dev/typecheck"
    assert all((ROOT / f).exists() for f in mypy["files"])
