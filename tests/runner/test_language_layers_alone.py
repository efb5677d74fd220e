"""The hostile corpus with every OS layer switched off: the language layers alone hold.

GRADSTEP_SANDBOX_OS_LAYERS=none starts workers without the uid change, Landlock, seccomp
and the file, fd and process rlimits (CPU and memory limits stay: they are limits, not
walls). Every escape in tests/runner/hostile must still end in its clear error without
reaching its goal, and the privileged-helper checks of test_worker_isolation hold too.
"""
import json
import pathlib

import pytest

from gradstep.runner import Limits, WorkerPool

HOSTILE = sorted((pathlib.Path(__file__).parent / "hostile").glob("esc*.py"))
SECRET = "gradstep-canary-no-os-layers"


def _header(path, key):
    for line in path.read_text(encoding="utf-8").splitlines()[:3]:
        if line.startswith(f"# {key}:"):
            return set(line.split(":", 1)[1].strip().split(","))
    raise AssertionError(f"{path.name} has no '# {key}:' header")


@pytest.fixture(scope="module")
def bare_pool():
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("GRADSTEP_SANDBOX_OS_LAYERS", "none")
        mp.delenv("GRADSTEP_SANDBOX_STRICT", raising=False)
        with WorkerPool(size=1, limits=Limits(cpu_seconds=2, wall_seconds=10)) as pool:
            yield pool


def test_the_workers_run_without_os_layers(bare_pool):
    assert not any(bare_pool.layers[k] for k in ("seccomp", "landlock", "unprivileged"))


@pytest.mark.parametrize("path", HOSTILE, ids=lambda p: p.stem)
def test_escape_is_stopped_by_the_language_layers(bare_pool, path, tmp_path, monkeypatch):
    marker = tmp_path / "marker"
    secret_file = tmp_path / "secret.txt"
    secret_file.write_text(SECRET)
    source = path.read_text(encoding="utf-8").replace("@MARKER@", str(marker)).replace(
        "@SECRET_FILE@", str(secret_file))
    result = bare_pool.run(source, trace=False)
    assert result.exit_code == 1 and result.error["kind"] in _header(path, "expect"), \
        result.error
    assert not marker.exists()
    assert SECRET not in result.stdout + result.stderr + json.dumps(result.error)
    assert "PWNED" not in result.stdout
