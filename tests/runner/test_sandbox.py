"""The OS layers and the process model: what holds even if the language layer were bypassed.

`harden()` is applied in a forked test process that then plays an attacker who already has
real builtins and `os` (an escape emulated past the policy), and reports what it could do.
"""
import json
import os
import socket

import pytest

from gradstep.runner import Limits, protocol
from gradstep.runner.child import harden, probe_layers
from gradstep.runner.sandbox import run_program


def _forked(body) -> tuple[list, int]:
    """Fork; the child runs `body(w)` with the write end of a pipe and exits with 0 (3 if
    `body` raised). Returns the frames the child wrote and its exit code."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        code = 3
        try:
            os.close(r)
            body(w)
            code = 0
        finally:
            os._exit(code)
    os.close(w)
    reader = protocol.FrameReader(r)
    frames = []
    while not reader.eof:
        frames += reader.read_available(10)
    os.close(r)
    _, status = os.waitpid(pid, 0)
    return frames, os.waitstatus_to_exitcode(status)


def _escaped_child(probe):
    """Fork, harden, run `probe(result)` as an escaped program would, return its report."""
    layers = probe_layers()

    def body(w):
        report = {}
        fd, _ = harden(Limits(cpu_seconds=2, memory_mb=256), w, layers, w)
        probe(report)
        protocol.write_json(fd, protocol.RESULT, report)
    frames, _ = _forked(body)
    return layers, json.loads(frames[-1][1])


def _attempt(report, key, action):
    try:
        action()
        report[key] = "succeeded"
    except (OSError, ValueError) as e:
        report[key] = f"refused: {e}"


def test_probe_reports_every_layer():
    layers = probe_layers()
    assert set(layers) == {"rlimits", "seccomp", "landlock", "unprivileged"}
    assert layers["rlimits"] is True


def test_a_program_never_runs_as_root(tmp_path):
    def probe(rep):
        rep["uid"], rep["gid"], rep["groups"] = os.getuid(), os.getgid(), os.getgroups()
        _attempt(rep, "setuid_back", lambda: os.setuid(0))
    _, report = _escaped_child(probe)
    assert report["uid"] != 0 and report["gid"] != 0 and report["groups"] == []
    assert report["setuid_back"].startswith("refused")


def test_an_escaped_program_cannot_write_files(tmp_path):
    target = tmp_path / "written"
    layers, report = _escaped_child(
        lambda rep: _attempt(rep, "write", lambda: open(target, "w").write("x")))
    assert report["write"].startswith("refused")
    assert not target.exists() or target.stat().st_size == 0


def test_an_escaped_program_cannot_read_files_when_landlock_is_active(tmp_path):
    secret = tmp_path / "secret"
    secret.write_text("canary")
    layers, report = _escaped_child(
        lambda rep: _attempt(rep, "read", lambda: rep.setdefault("data", open(secret).read())))
    if layers["landlock"]:
        assert report["read"].startswith("refused")
        assert "data" not in report
    else:   # without Landlock, reads are limited only by file permissions: say so
        assert report["read"] == "succeeded"


def _fork_once():
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)


def test_an_escaped_program_cannot_fork_exec_or_connect_when_seccomp_is_active():
    def probe(rep):
        _attempt(rep, "fork", _fork_once)
        _attempt(rep, "socket", lambda: socket.socket().close())
        _attempt(rep, "exec", lambda: os.execv("/bin/true", ["true"]))
        _attempt(rep, "kill", lambda: os.kill(os.getppid(), 0))
    layers, report = _escaped_child(probe)
    if not layers["seccomp"]:
        pytest.fail("seccomp is not available on this host; the sandbox reports it missing")
    for key in ("fork", "socket", "exec", "kill"):
        assert report[key].startswith("refused"), (key, report[key])


def test_an_escaped_program_cannot_raise_its_limits():
    import resource

    def probe(rep):
        _attempt(rep, "raise_cpu", lambda: resource.setrlimit(
            resource.RLIMIT_CPU, (resource.RLIM_INFINITY, resource.RLIM_INFINITY)))
        rep["fsize"] = resource.getrlimit(resource.RLIMIT_FSIZE)
        rep["nofile"] = resource.getrlimit(resource.RLIMIT_NOFILE)
    _, report = _escaped_child(probe)
    assert report["raise_cpu"].startswith("refused")
    assert report["fsize"] == [0, 0]
    assert report["nofile"][1] <= 16


def test_an_escaped_program_sees_no_inherited_fds_and_no_environment(pool):
    # the worker runs with an empty environment: the test's secret never reaches it
    os.environ["GRADSTEP_TEST_SECRET"] = "gradstep-canary-env"
    try:
        def probe(rep):
            rep["open_fds"] = [fd for fd in range(3, 64) if _is_open(fd)]
        _, report = _escaped_child(probe)
        assert report["open_fds"] == [3, 4]     # only the result pipe and the output pipe
    finally:
        del os.environ["GRADSTEP_TEST_SECRET"]


def _is_open(fd):
    try:
        os.fstat(fd)
        return True
    except OSError:
        return False


def test_the_worker_environment_is_scrubbed():
    from gradstep.runner.sandbox import _zygote_env
    os.environ["GRADSTEP_TEST_SECRET"] = "gradstep-canary-env"
    try:
        env = _zygote_env()
    finally:
        del os.environ["GRADSTEP_TEST_SECRET"]
    assert "GRADSTEP_TEST_SECRET" not in env
    assert env["PYTHONHASHSEED"] == "0" and env["OPENBLAS_NUM_THREADS"] == "1"


def test_run_program_without_a_pool_uses_the_same_sandbox():
    result = run_program("import os\n", trace=False)
    assert result.exit_code == 1
    assert result.error["kind"] == "refused"
    assert "import of 'os' is not allowed" in result.error["message"]


def test_runs_are_isolated_from_each_other(pool):
    poison = pool.run("import torch\ntorch.manual_seed(123)\nx = torch.ones(1)\n"
                      "with torch.no_grad():\n    pass\ntorch.set_grad_enabled(False)\n",
                      trace=False)
    assert poison.exit_code == 0, poison.stderr
    check = pool.run("import torch\nprint(torch.is_grad_enabled())\n", trace=False)
    assert check.stdout == "True\n"


def test_same_program_same_output_and_seeded_randomness(pool):
    source = ("import torch, random\nimport numpy as np\n"
              "print(torch.randn(3), random.random(), np.random.rand(), {'b', 'a', 'c'})\n")
    first, second = (pool.run(source, trace=False) for _ in range(2))
    assert first.exit_code == 0, first.stderr
    assert first.stdout == second.stdout


def test_a_crash_in_native_code_is_reported_clearly(pool):
    # an escaped program (emulated by the engine-free route of a real segfault) is contained:
    # the child dies, the worker reports it and serves the next run
    import signal
    from gradstep.runner import zygote
    error = zygote._classify_exit(signal.SIGSEGV, None, None, Limits(), 0.0)
    assert error["kind"] == "crash" and "SIGSEGV" in error["message"]
    assert pool.run("print('next')\n", trace=False).stdout == "next\n"


def test_a_missing_layer_warns_by_default(monkeypatch, caplog):
    from gradstep.runner.sandbox import check_layers
    monkeypatch.delenv("GRADSTEP_SANDBOX_STRICT", raising=False)
    with caplog.at_level("WARNING", logger="gradstep.sandbox"):
        assert check_layers({"rlimits": True, "seccomp": False, "landlock": True}) == ["seccomp"]
    assert "WITHOUT seccomp" in caplog.text


def test_strict_mode_fails_closed_when_a_layer_is_missing(monkeypatch):
    from gradstep.runner.sandbox import SandboxUnavailable, check_layers
    monkeypatch.setenv("GRADSTEP_SANDBOX_STRICT", "1")
    with pytest.raises(SandboxUnavailable, match="landlock"):
        check_layers({"rlimits": True, "seccomp": True, "landlock": False})
    monkeypatch.setenv("GRADSTEP_SANDBOX_STRICT", "seccomp")
    assert check_layers({"rlimits": True, "seccomp": True, "landlock": False}) == ["landlock"]
    assert check_layers({"rlimits": True, "seccomp": True, "landlock": True}) == []


def test_this_host_runs_with_every_layer_in_strict_mode(monkeypatch):
    # CI and the deployment image are expected to provide both layers; if this fails, the
    # host lacks one and a public server there would refuse to start in strict mode
    from gradstep.runner.sandbox import WorkerPool
    monkeypatch.setenv("GRADSTEP_SANDBOX_STRICT", "1")
    with WorkerPool(size=1) as strict:
        assert strict.layers == {"rlimits": True, "seccomp": True, "landlock": True,
                                 "unprivileged": True}


def test_a_run_whose_zygote_is_already_gone_never_starts():
    """PR_SET_PDEATHSIG only signals a death that happens after it is asked for: a run whose
    zygote died just before would run for its whole CPU limit, for nobody. harden() sees
    that its parent is no longer the zygote that forked it and exits at once."""
    def body(w):
        # 1 stands for a zygote that is no longer this process's parent
        fd, _ = harden(Limits(cpu_seconds=2, memory_mb=256), w, probe_layers(), w, parent=1)
        protocol.write_json(fd, protocol.RESULT, {"ran": True})
        os._exit(4)     # reached only if harden let the run start
    assert _forked(body) == ([], 0)
