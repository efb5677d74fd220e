"""The README tells the truth: two set-up commands that CI runs, a configuration table that
matches the variables the code reads, the CLI's real subcommands, links that resolve.
"""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from ._repo import (ROOT, UNKNOWN_DEFAULT, config_variables, markdown_table_rows,
                    strip_code)

README = (ROOT / "README.md").read_text()


def section(title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", README, re.M | re.S)
    assert match, f"README has no '## {title}' section"
    return match.group(1)


def commands(block: str) -> list[str]:
    return [line.split("#")[0].strip() for line in block.splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def test_quick_start_is_exactly_two_commands():
    blocks = re.findall(r"```sh\n(.*?)```", section("Quick start"), re.S)
    assert len(blocks) == 1
    assert commands(blocks[0]) == ["./dev.sh serve", "./dev.sh test"]
    assert "http://127.0.0.1:8000" in blocks[0]


def test_ci_runs_the_readme_test_command():
    script = (ROOT / ".ci/run").read_text()
    lines = [line.strip() for line in script.splitlines()
             if line.strip() and not line.strip().startswith("#")]
    assert "./dev.sh test" in lines
    # the lint stage comes first, so a finding fails fast
    assert lines.index("./dev.sh lint") < lines.index("./dev.sh test")
    # pytest's "no tests collected" must not pass for green.
    assert re.search(r'"\$status" -eq 5', script) and "exit 1" in script


def test_scripts_are_executable_in_git():
    out = subprocess.run(["git", "ls-files", "-s", "dev.sh", ".ci/run"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    modes = {line.split()[3]: line.split()[0] for line in out.splitlines()}
    # Files not yet committed have no mode in git; their mode on disk is what gets committed.
    for name in ("dev.sh", ".ci/run"):
        mode = modes.get(name) or oct((ROOT / name).stat().st_mode)[-6:]
        assert mode == "100755", f"{name} is not executable ({mode})"


def test_dev_sh_is_valid_bash_and_explains_itself():
    subprocess.run(["bash", "-n", "dev.sh"], cwd=ROOT, check=True)
    shown = subprocess.run(["./dev.sh", "help"], cwd=ROOT, capture_output=True, text=True,
                           timeout=30)
    assert shown.returncode == 0
    assert "./dev.sh serve" in shown.stdout and "./dev.sh test" in shown.stdout
    wrong = subprocess.run(["./dev.sh", "deploy-to-mars"], cwd=ROOT, capture_output=True,
                           text=True, timeout=30)
    assert wrong.returncode == 2 and "./dev.sh test" in wrong.stderr


def _documented_defaults() -> dict[str, str]:
    rows = markdown_table_rows(section("Configuration"))
    return {strip_code(r[0]): strip_code(r[1]) for r in rows
            if len(r) >= 3 and r[0].startswith("`GRADSTEP_")}


def _matches(default: object, cell: str) -> bool:
    if default is UNKNOWN_DEFAULT:
        return True
    if default is None:
        return cell.startswith("unset")
    if isinstance(default, bool):
        return cell == str(default).lower()
    if isinstance(default, (int, float)):
        try:
            return float(cell.replace("_", "").replace(",", "")) == float(default)
        except ValueError:
            return False
    if isinstance(default, Path):
        return cell.startswith("the packaged")
    return cell == str(default)


def test_configuration_table_matches_the_code():
    code = config_variables()
    documented = _documented_defaults()
    undocumented = sorted(set(code) - set(documented))
    assert undocumented == [], f"add to the README's Configuration tables: {undocumented}"
    stale = sorted(set(documented) - set(code))
    assert stale == [], f"the README documents variables nothing reads: {stale}"
    wrong = {name: (documented[name], code[name]) for name in code
             if not _matches(code[name], documented[name])}
    assert wrong == {}, f"README default vs. the code's default: {wrong}"


def test_cli_section_lists_the_real_subcommands():
    from gradstep.app.cli import build_parser

    parser = build_parser()
    (sub,) = [a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction"]
    block = re.findall(r"```sh\n(.*?)```", section("Command line"), re.S)[0]
    shown = {line.split()[1] for line in commands(block) if not line.split()[1].startswith("-")}
    assert shown == set(sub.choices)


def test_local_links_resolve():
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README):
        if "://" not in target:
            assert (ROOT / target).exists(), f"README links to missing {target}"


def test_screenshot_shown_only_when_it_exists():
    shown = re.search(r"!\[[^\]]*\]\((docs/screenshot\.png)\)", README)
    assert bool(shown) == (ROOT / "docs/screenshot.png").exists()


def test_layout_lists_what_is_there():
    block = re.findall(r"```\n(.*?)```", section("Repository layout"), re.S)[0]
    listed = {line.split()[0].rstrip("/") for line in block.splitlines() if line.strip()}
    for name in listed:
        assert (ROOT / name).exists(), f"README's layout lists missing {name}"
    top = {p.name for p in ROOT.iterdir() if p.is_dir() and not p.name.startswith(".")}
    packaged = {"engine", "runner", "app", "templates", "static", "tests", "docs", "deploy"}
    assert packaged <= listed and packaged <= top


def test_api_table_matches_the_routes():
    from fastapi.testclient import TestClient

    from gradstep.app.main import create_app

    app = create_app()
    routes = {(method.upper(), path) for path, item in app.openapi()["paths"].items()
              for method in item}
    rows = markdown_table_rows(section("HTTP API"))
    documented = {tuple(ref.split(" ", 1)) for row in rows[2:]
                  for ref in re.findall(r"`([A-Z]+ /[^`]*)`", row[0])}
    # The two documentation routes are outside the schema they serve; ask them directly
    # (no `with`: the sandbox pool is not started for this).
    client = TestClient(app, base_url="http://localhost")   # a name the server answers to
    for extra in (("GET", "/openapi.json"), ("GET", "/docs")):
        if extra in documented:
            assert client.get(extra[1]).status_code == 200, extra
            routes.add(extra)
    assert sorted(documented - routes) == [], "the README documents routes the app lacks"
    api = {r for r in routes if r[1].startswith("/api/") or r[1] in ("/healthz", "/readyz")}
    assert sorted(api - documented) == [], "routes missing from the README's HTTP API table"


def fake_ci(tmp_path: Path, lint_status: int, pytest_status: int) -> subprocess.CompletedProcess:
    """.ci/run beside a stand-in dev.sh whose lint and test end with the given statuses."""
    (tmp_path / ".ci").mkdir()
    shutil.copy2(ROOT / ".ci/run", tmp_path / ".ci/run")
    fake = tmp_path / "dev.sh"
    fake.write_text("#!/usr/bin/env bash\necho \"dev.sh $*\"\n"
                    f"if [ \"$1\" = lint ]; then exit {lint_status}; fi\nexit {pytest_status}\n")
    fake.chmod(0o755)
    return subprocess.run(["bash", str(tmp_path / ".ci/run")], capture_output=True, text=True,
                          timeout=30, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize(("pytest_status", "ci_status"), [(0, 0), (1, 1), (2, 2), (5, 1)])
def test_ci_fails_when_tests_fail_or_none_are_collected(tmp_path, pytest_status, ci_status):
    proc = fake_ci(tmp_path, 0, pytest_status)
    assert proc.stdout.splitlines() == ["dev.sh lint", "dev.sh test"]
    assert proc.returncode == ci_status
    assert ("no tests" in proc.stderr) == (pytest_status == 5)


def test_ci_stops_at_a_lint_finding_before_the_tests(tmp_path):
    proc = fake_ci(tmp_path, 1, 0)
    assert proc.stdout.splitlines() == ["dev.sh lint"]
    assert proc.returncode == 1 and "lint found problems" in proc.stderr
