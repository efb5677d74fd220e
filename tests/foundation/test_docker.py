"""The Dockerfile: it lints clean, and what it promises agrees with the app, the README and the
deployment manifests (port, user, variables, health endpoint, shared libraries).

No Docker engine runs on the machines this suite runs on, so nothing here builds the image;
the checks read the Dockerfile and compare it with the code it packages.
"""
from __future__ import annotations

import fnmatch
import http.server
import json
import os
import re
import shlex
import socket
import subprocess
import sys
import threading
from pathlib import Path

from ._repo import ROOT, config_variables, dockerfile_instructions, env_of, tool

INSTRUCTIONS = dockerfile_instructions()
FINAL = max(ins.stage for ins in INSTRUCTIONS)


def final(keyword: str) -> list[str]:
    return [ins.args for ins in INSTRUCTIONS if ins.keyword == keyword and ins.stage == FINAL]


def hadolint(path: Path) -> list[dict]:
    proc = subprocess.run([tool("hadolint"), "--format", "json", "--failure-threshold", "style",
                           str(path)], capture_output=True, text=True, timeout=60)
    assert proc.stdout.strip(), f"hadolint printed nothing: {proc.stderr}"
    return json.loads(proc.stdout)


def test_dockerfile_lints_clean():
    findings = hadolint(ROOT / "Dockerfile")
    assert findings == [], "\n".join(f"line {f['line']}: {f['code']} {f['message']}"
                                     for f in findings)


def test_hadolint_really_lints(tmp_path):
    # The clean result above only means something if the linter reports what it should.
    bad = tmp_path / "Dockerfile"
    bad.write_text("FROM python:latest\nRUN apt-get install gcc\n")
    codes = {f["code"] for f in hadolint(bad)}
    assert {"DL3007", "DL3008"} <= codes


def test_two_stages_on_a_slim_python_311_base():
    froms = [ins.args for ins in INSTRUCTIONS if ins.keyword == "FROM"]
    assert len(froms) >= 2, "the build stage keeps build tooling out of the final image"
    args = dict(a.split("=", 1) for ins in INSTRUCTIONS if ins.keyword == "ARG" and ins.stage < 0
                for a in [ins.args] if "=" in a)
    base = re.sub(r"\$\{(\w+)\}", lambda m: args[m.group(1)], froms[-1].split()[0])
    assert re.fullmatch(r"python:3\.11-slim(-\w+)?", base), base


def test_final_stage_installs_no_build_tools():
    runs = " ".join(final("RUN"))
    for tool_name in ("gcc", "g++", "build-essential", "make ", "python3-dev", "pip install"):
        assert tool_name not in runs, f"{tool_name!r} in the final stage"
    copies = final("COPY")
    assert copies and all(c.startswith("--from=") for c in copies), \
        "the final stage takes only the built virtual environment from the build stage"


def test_runs_as_a_numeric_non_root_user():
    users = final("USER")
    assert users, "no USER in the final stage: the app would run as root"
    uid = users[-1].split(":")[0]
    assert uid.isdigit() and int(uid) >= 1000, users[-1]
    # The same id is the one Kubernetes is told to enforce.
    deployment = (ROOT / "deploy/k8s/deployment.yaml").read_text()
    assert f"runAsUser: {uid}" in deployment


def test_port_agrees_with_env_and_readme():
    env = env_of(INSTRUCTIONS, FINAL)
    assert final("EXPOSE") == [env["GRADSTEP_PORT"]] == ["8000"]
    assert env["GRADSTEP_HOST"] == "0.0.0.0", "inside a container the app must listen on all"
    readme = (ROOT / "README.md").read_text()
    assert "docker run -p 8000:8000" in readme


def test_threads_and_workers():
    env = env_of(INSTRUCTIONS, FINAL)
    assert env["OPENBLAS_NUM_THREADS"] == env["OMP_NUM_THREADS"] == "1"
    assert int(env["GRADSTEP_WEB_WORKERS"]) >= 2, "the image serves with several workers"
    assert final("CMD") == ['["gradstep", "serve"]'], "serve reads GRADSTEP_* itself"


def test_image_refuses_to_start_without_the_sandbox_os_layers():
    env = env_of(INSTRUCTIONS, FINAL)
    assert env["GRADSTEP_SANDBOX_STRICT"] == "1"
    assert "GRADSTEP_SANDBOX_OS_LAYERS" not in env


def test_every_variable_the_image_sets_is_one_the_app_reads():
    known = config_variables()
    env = env_of(INSTRUCTIONS, FINAL)
    unknown = sorted(k for k in env if k.startswith("GRADSTEP_") and k not in known)
    assert unknown == [], f"the Dockerfile sets variables nothing reads: {unknown}"
    readme = (ROOT / "README.md").read_text()
    for key in env:
        if key.startswith("GRADSTEP_"):
            assert f"`{key}`" in readme, f"{key} is set by the image but not in the README"


def test_copied_sources_exist_and_are_not_docker_ignored():
    patterns = [p.strip() for p in (ROOT / ".dockerignore").read_text().splitlines()
                if p.strip() and not p.startswith("#")]
    for args in (ins.args for ins in INSTRUCTIONS if ins.keyword == "COPY"
                 and not ins.args.startswith("--from")):
        *sources, _dest = shlex.split(args)
        for src in sources:
            src = src.rstrip("/")
            assert (ROOT / src).exists(), f"COPY {src}: no such file in the repository"
            ignored = [p for p in patterns if fnmatch.fnmatch(src, p.rstrip("/"))]
            assert not ignored, f"COPY {src} but .dockerignore excludes it ({ignored})"
    # And what pip needs to build the project is copied at all.
    copied = " ".join(ins.args for ins in INSTRUCTIONS if ins.keyword == "COPY")
    for needed in ("pyproject.toml", "setup.py", "README.md", "engine/", "runner/", "app/",
                   "templates/", "static/"):
        assert needed in copied, f"the build stage does not copy {needed}"


def _healthcheck_argv() -> list[str]:
    (check,) = final("HEALTHCHECK")
    exec_form = check[check.index("CMD") + 3:].strip()
    argv = json.loads(exec_form)
    assert argv[0] == "python", "the slim base has no curl or wget; python is there"
    return [sys.executable] + argv[1:]


class _Health(http.server.BaseHTTPRequestHandler):
    def do_GET(self):  # (the stdlib's name)
        self.send_response(200 if self.path == "/healthz" else 404)
        self.end_headers()

    def log_message(self, *args):
        pass


def test_healthcheck_command_probes_healthz_on_gradstep_port():
    argv = _healthcheck_argv()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Health)
    port = server.server_address[1]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        env = {**os.environ, "GRADSTEP_PORT": str(port)}
        ok = subprocess.run(argv, env=env, capture_output=True, timeout=30)
        assert ok.returncode == 0, ok.stderr
    finally:
        server.shutdown()
        server.server_close()
    # Nothing listens there any more: the same command must now report unhealthy.
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        free = s.getsockname()[1]
    down = subprocess.run(argv, env={**os.environ, "GRADSTEP_PORT": str(free)},
                          capture_output=True, timeout=30)
    assert down.returncode != 0


# Libraries the python:3.11-slim image (Debian bookworm) already has: the C and C++ runtimes
# and what CPython itself links (zlib, expat, libffi).
BASE_IMAGE_PACKAGES = {"libc6", "libgcc-s1", "libstdc++6", "zlib1g", "libexpat1", "libffi8"}


def _needed(lib: Path) -> list[str]:
    out = subprocess.run(["readelf", "-d", str(lib)], capture_output=True, text=True,
                         check=True).stdout
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out)


def _debian_package_of(soname: str) -> str:
    paths = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True,
                           check=True).stdout
    match = re.search(rf"^\s*{re.escape(soname)} \(.*\) => (\S+)$", paths, re.M)
    assert match, f"{soname} is not installed on this machine either"
    path = Path(match.group(1))
    for candidate in (path, path.resolve(), Path("/usr") / path.relative_to("/")):
        proc = subprocess.run(["dpkg", "-S", str(candidate)], capture_output=True, text=True)
        if proc.returncode == 0:
            return proc.stdout.split(":")[0].split(",")[0].strip()
    raise AssertionError(f"no Debian package owns {path}")


def test_image_installs_the_libraries_pygraphviz_does_not_bundle():
    # Reads this machine's Debian package database (dpkg, readelf): this machine and the
    # image share the Debian release, so the package names carry over.
    import pygraphviz

    package_dir = Path(pygraphviz.__file__).parent
    bundled_dir = package_dir.parent / "pygraphviz.libs"
    libs = list(package_dir.glob("*.so")) + list(bundled_dir.glob("*.so*"))
    assert libs, "pygraphviz ships no shared libraries: is it the wheel that bundles Graphviz?"
    bundled = {p.name for p in bundled_dir.glob("*.so*")}
    external = {so for lib in libs for so in _needed(lib) if so not in bundled}
    runs = " ".join(final("RUN"))
    missing = {}
    for soname in sorted(external):
        if soname.startswith(("ld-linux", "libc.so", "libm.so", "libdl.so", "libpthread.so",
                              "librt.so")):
            continue
        package = _debian_package_of(soname)
        if package not in BASE_IMAGE_PACKAGES and not re.search(rf"\b{re.escape(package)}\b",
                                                                runs):
            missing[soname] = package
    assert missing == {}, f"the final stage must apt-get install {sorted(set(missing.values()))}"


# Libraries Python packages open at run time with ctypes, so no ELF header names them:
# library name for ctypes.util.find_library -> the package that loads it.
CTYPES_LIBRARIES = {"seccomp": "pyseccomp"}


def test_image_installs_the_libraries_loaded_through_ctypes():
    import ctypes.util
    import importlib.metadata

    runs = " ".join(final("RUN"))
    for name, distribution in CTYPES_LIBRARIES.items():
        requires = importlib.metadata.requires("gradstep") or []
        assert any(r.startswith(distribution) for r in requires), \
            f"{distribution} is no longer a dependency: drop it from CTYPES_LIBRARIES"
        found = ctypes.util.find_library(name)
        assert found, f"lib{name} is not installed on this machine"
        package = _debian_package_of(found)
        assert re.search(rf"\b{re.escape(package)}\b", runs), \
            f"{distribution} loads lib{name}: the final stage must apt-get install {package}"
