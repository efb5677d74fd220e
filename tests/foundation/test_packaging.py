"""A wheel built from this checkout, installed with pip into a fresh virtual environment
outside the repository, is a working gradstep: every module and asset is in it, the console
script answers, and `gradstep serve` serves the page, its static files and the health checks.

The build runs on a copy of the checkout's files (git's view: committed and new, not
ignored), limited to what the Dockerfile's build stage copies, so leftovers such as `build/`
or an editable install cannot make it pass, and neither can a file the image would lack. pip reuses
its download cache, so after `./dev.sh test` has installed the dependencies once, this test
spends its time unpacking, not downloading.
"""
from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import tomllib
import urllib.error
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from ._repo import ROOT, tracked_files

# Where each of the repository's folders lands in the wheel: all of it under `gradstep/`.
IN_WHEEL = {"gradstep/": "gradstep/", "engine/": "gradstep/engine/",
            "runner/": "gradstep/runner/", "app/": "gradstep/app/",
            "templates/": "gradstep/app/templates/", "static/": "gradstep/app/static/"}
BUILD_FILES = ("pyproject.toml", "setup.py", "README.md", "LICENSE")


@dataclass
class Installed:
    wheel: Path
    venv: Path
    workdir: Path          # an empty directory outside the checkout, used as cwd
    files: list[str]       # the checkout's files the wheel was built from

    def bin(self, name: str) -> str:
        return str(self.venv / "bin" / name)


def clean_env() -> dict[str, str]:
    """The environment without anything that could point back into the checkout."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("GRADSTEP_") and k not in ("VIRTUAL_ENV", "PYTHONPATH",
                                                          "PYTHONHOME")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def run(argv: list, **kwargs) -> subprocess.CompletedProcess:
    proc = subprocess.run([str(a) for a in argv], capture_output=True, text=True,
                          env=kwargs.pop("env", clean_env()), **kwargs)
    assert proc.returncode == 0, f"{argv} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Installed:
    tmp = tmp_path_factory.mktemp("packaging")
    source = tmp / "source"
    # What a build reads, and all the Dockerfile copies into its build stage.
    files = [rel for rel in tracked_files()
             if rel in BUILD_FILES or rel.startswith(tuple(IN_WHEEL))]
    for rel in files:
        (source / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, source / rel)
    wheels = tmp / "wheels"
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--wheel-dir", wheels, source],
        timeout=300)
    (wheel,) = wheels.glob("gradstep-*.whl")
    venv = tmp / "venv"
    # no pip of its own (seeding one costs seconds): this pip installs into it
    run([sys.executable, "-m", "venv", "--without-pip", venv], timeout=120)
    run([sys.executable, "-m", "pip", "--python", venv / "bin" / "python", "install", wheel],
        timeout=600)
    workdir = tmp / "elsewhere"
    workdir.mkdir()
    return Installed(wheel, venv, workdir, files)


def test_wheel_holds_every_module_and_asset(installed):
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    expected = set()
    for rel in installed.files:
        if "__pycache__" in rel or Path(rel).name.startswith("."):
            continue
        for folder, package in IN_WHEEL.items():
            if rel.startswith(folder):
                expected.add(package + rel[len(folder):])
    missing = sorted(expected - names)
    assert missing == [], ("not in the wheel (a package without __init__.py, or data files "
                           "that [tool.setuptools.package-data] does not list): "
                           + ", ".join(missing[:20]))
    assert any(n.startswith("gradstep/app/templates/") for n in names), "no templates"


def test_only_gradstep_at_the_top_of_site_packages(installed):
    """A learner's own `app.py`, `engine/` or `runner.py` never meets gradstep's: the install
    adds one package name, `gradstep`, and its metadata, nothing else."""
    (site,) = installed.venv.glob("lib/python*/site-packages")
    before = {p.name for p in site.iterdir()}
    ours = {name for name in before
            if name == "gradstep" or (name.startswith("gradstep-") and
                                      name.endswith(".dist-info"))}
    assert "gradstep" in ours and len(ours) == 2, sorted(before)
    assert not before & {"app", "engine", "runner", "templates", "static"}, sorted(before)
    # the wheel itself: every file is under gradstep/ or its dist-info
    tops = {n.split("/", 1)[0] for n in zipfile.ZipFile(installed.wheel).namelist()}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"gradstep"}, sorted(tops)


def source_version() -> str:
    """The version as gradstep/__init__.py writes it (the one place it is written)."""
    found = re.findall(r'^__version__ = "([^"]+)"$', (ROOT / "gradstep/__init__.py").read_text(),
                       re.M)
    assert len(found) == 1, "gradstep/__init__.py must assign __version__ once, as a plain string"
    return found[0]


def test_version_is_written_in_one_place():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "gradstep.__version__"}
    # the image tags the deployment files name are the release they were written for
    version = source_version()
    for path in ("deploy/docker-compose.yml", "deploy/k8s/deployment.yaml"):
        tags = re.findall(r"image: gradstep:(\S+)", (ROOT / path).read_text())
        assert tags and set(tags) == {version}, (path, tags, version)
    assert re.search(rf"newTag: {re.escape(version)}$",
                     (ROOT / "deploy/k8s/kustomization.yaml").read_text(), re.M)
    assert re.search(rf"^## \[?{re.escape(version)}\]?", (ROOT / "CHANGELOG.md").read_text(),
                     re.M), "CHANGELOG.md has no section for the current version"


def requirement_name(req: str) -> str:
    return re.split(r"[\s\[<>=!~;]", req, maxsplit=1)[0].lower()


def test_dependencies_are_split_by_purpose():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    project, groups = data["project"], data["dependency-groups"]
    runtime = project["dependencies"]
    # the server's own: uvicorn without [standard] (no websockets, no watchfiles)
    assert not any(r.startswith("uvicorn[") for r in runtime)
    # the sandbox's bindings are taken on purpose: exact pins
    pins = {requirement_name(r): r for r in runtime}
    for name in ("pyseccomp", "landlock"):
        specifier = pins[name].split(";")[0]       # the version part, before any marker
        assert re.fullmatch(rf"{name}==[^,<>=!~]+", specifier.strip()), pins[name]
    # users install extras; the tools that test and check gradstep are dependency groups,
    # which the published metadata does not carry
    assert set(project["optional-dependencies"]) == {"notebook"}
    # heavy tools stay in the group they are for, never in the unit-test environment
    where: dict[str, set[str]] = {}
    for purpose, reqs in groups.items():
        for r in reqs:
            if isinstance(r, str):
                where.setdefault(requirement_name(r), set()).add(purpose)
    assert where["locust"] == {"load"} and where["playwright"] == {"browser"}
    assert where["ruff"] == where["mypy"] == {"lint"}
    assert all("==" in r.split(";")[0] for r in groups["lint"]
               if requirement_name(r) in ("ruff", "mypy")), "linters are pinned exactly"
    # dev is every other group, by inclusion
    assert groups["dev"] == [{"include-group": g} for g in groups if g != "dev"]


def test_published_metadata_offers_only_the_user_extra(installed):
    with zipfile.ZipFile(installed.wheel) as wheel:
        (name,) = [n for n in wheel.namelist() if n.endswith(".dist-info/METADATA")]
        metadata = wheel.read(name).decode()
    assert re.findall(r"^Provides-Extra: (.+)$", metadata, re.M) == ["notebook"]
    for tool_name in ("pytest", "playwright", "locust", "ruff", "hadolint"):
        assert not re.search(rf"^Requires-Dist: {tool_name}\b", metadata, re.M | re.I), tool_name


def test_console_script_help_and_version(installed):
    version = source_version()
    shown = run([installed.bin("gradstep"), "--version"], cwd=installed.workdir)
    assert shown.stdout.strip() == f"gradstep {version}"
    as_module = run([installed.bin("python"), "-m", "gradstep", "--version"],
                    cwd=installed.workdir)
    assert as_module.stdout.strip() == f"gradstep {version}"
    helped = run([installed.bin("gradstep"), "--help"], cwd=installed.workdir)
    for command in ("run", "trace", "render", "serve"):
        assert re.search(rf"^\s+{command}\s", helped.stdout, re.M), helped.stdout


def test_code_comes_from_the_install_not_the_checkout(installed):
    shown = run([installed.bin("python"), "-c",
                 "import gradstep; from gradstep import app, engine, runner;"
                 "import gradstep.app.settings as s;"
                 "print(gradstep.__file__); print(app.__file__); print(engine.__file__);"
                 "print(runner.__file__);"
                 "print(s.get_settings().templates_dir); print(s.get_settings().static_dir)"],
                cwd=installed.workdir)
    site = installed.venv.resolve()
    for line in shown.stdout.split():
        assert Path(line).resolve().is_relative_to(site), line
        assert not Path(line).resolve().is_relative_to(ROOT), line


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url: str) -> tuple[int, str, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.headers.get("content-type", ""), response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("content-type", ""), error.read()


@pytest.fixture
def server(installed):
    port = free_port()
    log = installed.workdir / "serve.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen([installed.bin("gradstep"), "serve", "--port", str(port)],
                                cwd=installed.workdir, env=clean_env(), stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        # Wait (bounded) for the first answer; a server that dies fails at once.
        deadline = time.monotonic() + 90
        while True:
            assert proc.poll() is None, f"gradstep serve exited:\n{log.read_text()[-4000:]}"
            try:
                if get(base + "/healthz")[0] == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, f"no answer:\n{log.read_text()[-4000:]}"
            time.sleep(0.3)
        yield base
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def test_serve_answers_page_assets_and_health(server):
    status, kind, body = get(server + "/healthz")
    assert status == 200 and kind.startswith("application/json")
    status, kind, body = get(server + "/")
    assert status == 200 and kind.startswith("text/html"), body[:500]
    page = body.decode()
    assets = sorted(set(re.findall(r'(?:src|href)="(/static/[^"?#]+)', page)))
    assert assets, "the page loads nothing from /static"
    for path in assets:
        status, _kind, content = get(server + path)
        assert status == 200 and content, path
    status, _kind, body = get(server + "/readyz")
    assert status == 200, body
