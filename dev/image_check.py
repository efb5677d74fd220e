"""The release check of the container image: build it from the Dockerfile and run it as users do.

    sudo python dev/image_check.py         # 2 to 3 minutes on a loaded 2-core machine
    sudo python dev/image_check.py --base localhost/gradstep-base:bookworm   # reuse the base

Needs root, podman, runc and debootstrap (`apt-get install podman runc debootstrap`), and PyYAML
to read the compose file. It works where no container registry can be reached:

1. A Debian bookworm base (`debootstrap --variant=minbase` with python3, python3-venv and
   python-is-python3) from the Debian mirror apt already uses, read from apt's sources at run
   time. The machine's CA bundle and pip configuration files are copied in, so pip inside the
   build trusts and uses what pip outside does. `podman import` makes it an image.
2. `podman build --isolation=chroot --build-arg PYTHON_IMAGE=<that base>` of the repository's
   Dockerfile.
3. `podman run` with the settings of the compose file's `app` service (environment, user,
   read-only root, tmpfs, dropped capabilities, no new privileges, CPU and memory limits).

Then it checks that the server answers, runs as non-root, started its sandbox strict with every
OS layer, answers a program with PyTorch's output, refuses hostile programs with a clear error,
and runs with the compose file's settings. Each check prints PASS or FAIL; the exit code is 0
only when all pass (2 when a tool is missing). The images are kept; the container is removed.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = ROOT / "deploy" / "docker-compose.yml"
SUITE = "bookworm"
PACKAGES = "python3,python3-venv,python-is-python3"
SEED = ("import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "(x * x).sum().backward()\nprint(x.grad)\n")
SEED_STDOUT = "tensor([2., 4.])"
# Programs the sandbox must refuse before they run, each with what it tries.
HOSTILE = {
    "reads a system file": "print(open('/etc/passwd').read())\n",
    "imports os by its dunder": "os = __import__('os')\nprint(os.listdir('/'))\n",
    "starts a shell": "import subprocess\nsubprocess.run(['sh', '-c', 'id'])\n",
}
# What the server must report at start-up in the strict image.
LAYERS = {"rlimits", "seccomp", "landlock", "unprivileged"}
# pip reads its configuration from these files as well as from the environment; the ones
# present are copied into the base so the build uses the same package index and constraints.
PIP_CONFIG = ("/etc/pip.conf", "/etc/xdg/pip")
CA_BUNDLE = "/etc/ssl/certs/ca-certificates.crt"

results: list[tuple[str, bool, str]] = []


def say(text: str) -> None:
    print(f"image_check: {text}", flush=True)


def check(name: str, ok: bool, detail: str = "") -> bool:
    results.append((name, ok, detail))
    print(f"{'PASS' if ok else 'FAIL'}  {name}" + (f": {detail}" if detail else ""), flush=True)
    return ok


def run(cmd: list[str], *, env: dict | None = None, check_rc: bool = True,
        input_bytes: bytes | None = None, quiet: bool = False) -> subprocess.CompletedProcess:
    if not quiet:
        say("$ " + " ".join(cmd))
    done = subprocess.run(cmd, env=env, input=input_bytes, capture_output=True)
    if check_rc and done.returncode:
        sys.stdout.write(done.stdout.decode(errors="replace")[-4000:])
        sys.stdout.write(done.stderr.decode(errors="replace")[-4000:])
        raise SystemExit(f"image_check: `{' '.join(cmd[:3])} ...` failed with exit code "
                         f"{done.returncode}")
    return done


# ----- the Debian mirror apt uses -----

def apt_sources() -> list[tuple[str, list[str]]]:
    """(URI, suites) of every `deb` entry in apt's one-line and deb822 source files."""
    found: list[tuple[str, list[str]]] = []
    base = Path("/etc/apt")
    one_line = [base / "sources.list", *sorted((base / "sources.list.d").glob("*.list"))]
    for path in one_line:
        if not path.is_file():
            continue
        for line in path.read_text().splitlines():
            # `deb [options] URI suite components...`
            words = re.sub(r"\[[^]]*\]", " ", line.split("#", 1)[0]).split()
            if len(words) >= 3 and words[0] == "deb":
                found.append((words[1], [words[2]]))
    for path in sorted((base / "sources.list.d").glob("*.sources")):
        for stanza in re.split(r"\n\s*\n", path.read_text()):
            fields: dict[str, str] = {}
            for line in stanza.splitlines():
                if line.startswith("#") or ":" not in line or line[:1].isspace():
                    continue
                key, value = line.split(":", 1)
                fields[key.strip().lower()] = value.strip()
            if "deb" in fields.get("types", "").split() and fields.get("enabled", "yes") != "no":
                for uri in fields.get("uris", "").split():
                    found.append((uri, fields.get("suites", "").split()))
    return found


def debian_mirror() -> str:
    """The mirror of apt's entry for the bookworm suite itself (not -security or -updates)."""
    for uri, suites in apt_sources():
        if SUITE in suites:
            return uri
    raise SystemExit(f"image_check: apt has no source for the {SUITE} suite; add a Debian "
                     "mirror to apt's sources, or pass --base with a bookworm image")


# ----- the base image -----

def make_base(tag: str, env: dict) -> None:
    mirror = debian_mirror()
    say(f"making a Debian {SUITE} base from {mirror} (about a minute)")
    with tempfile.TemporaryDirectory(prefix="gradstep-base-") as tmp:
        root = Path(tmp) / "root"
        run(["debootstrap", "--variant=minbase", f"--include={PACKAGES}", SUITE, str(root),
             mirror])
        # pip inside the build trusts what pip outside does, and reads the same configuration.
        bundle = os.environ.get("PIP_CERT") or os.environ.get("SSL_CERT_FILE") or CA_BUNDLE
        if Path(bundle).is_file():
            target = root / CA_BUNDLE.lstrip("/")
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(bundle, target)
        for path in PIP_CONFIG:
            source, target = Path(path), root / path.lstrip("/")
            if source.is_dir():
                shutil.copytree(source, target, dirs_exist_ok=True)
            elif source.is_file():
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(source, target)
        # Only the image's own trees: debootstrap leaves its downloaded .debs in apt's cache.
        shutil.rmtree(root / "var/cache/apt/archives", ignore_errors=True)
        (root / "var/cache/apt/archives/partial").mkdir(parents=True, exist_ok=True)
        tar = subprocess.run(["tar", "-C", str(root), "-c", "."], capture_output=True,
                             check=True).stdout
        run(["podman", "import", "--change", "CMD [\"python3\"]", "-", tag], env=env,
            input_bytes=tar)


# ----- the compose file's settings -----

def compose_app() -> dict:
    try:
        import yaml
    except ImportError:
        raise SystemExit("image_check: reading the compose file needs PyYAML (`pip install "
                         "pyyaml`, or run the script with the project's .venv python)") from None
    return yaml.safe_load(COMPOSE.read_text())["services"]["app"]


def run_options(app: dict) -> list[str]:
    """`podman run` options for what the compose file's `app` service asks of its container."""
    options: list[str] = []
    env = app.get("environment") or {}
    if isinstance(env, list):
        env = dict(item.split("=", 1) for item in env)
    for key, value in env.items():
        options += ["--env", f"{key}={value}"]
    if app.get("user"):
        options += ["--user", str(app["user"])]
    if app.get("read_only"):
        options.append("--read-only")
    for mount in app.get("tmpfs") or []:
        options += ["--tmpfs", mount]
    for cap in app.get("cap_drop") or []:
        options += ["--cap-drop", cap]
    for opt in app.get("security_opt") or []:
        options += ["--security-opt", opt.replace(":true", "")]
    limits = ((app.get("deploy") or {}).get("resources") or {}).get("limits") or {}
    if "cpus" in limits:
        options += ["--cpus", str(limits["cpus"])]
    if "memory" in limits:
        options += ["--memory", str(limits["memory"])]
    return options


# ----- talking to the container -----

def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def http(url: str, body: dict | None = None, timeout: float = 60) -> tuple[int, dict]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


def wait_healthy(base_url: str, name: str, env: dict, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if http(f"{base_url}/healthz", timeout=3)[0] == 200:
                return True
        except (OSError, ValueError):
            pass
        state = run(["podman", "inspect", "--format", "{{.State.Running}}", name], env=env,
                    check_rc=False, quiet=True).stdout.decode().strip()
        if state != "true":
            return False
        time.sleep(1)
    return False


def container_exec(name: str, env: dict, code: str) -> str:
    return run(["podman", "exec", name, "python", "-c", code], env=env, check_rc=False,
               quiet=True).stdout.decode()


# Read inside the container: every process's uid, gid, capabilities and no_new_privs, and
# PID 1's environment.
PROBE = r"""
import json, os
procs = {}
for pid in filter(str.isdigit, os.listdir('/proc')):
    try:
        status = dict(line.split(':', 1) for line in open(f'/proc/{pid}/status'))
        cmd = open(f'/proc/{pid}/cmdline', 'rb').read().replace(b'\0', b' ').decode()
    except OSError:
        continue
    procs[pid] = {'uid': status['Uid'].split()[1], 'gid': status['Gid'].split()[1],
                  'cap_eff': status['CapEff'].strip(), 'nnp': status['NoNewPrivs'].strip(),
                  'cmd': cmd.strip()}
env = dict(item.split('=', 1) for item in
           open('/proc/1/environ', 'rb').read().decode().split('\0') if '=' in item)
writable = {}
for path in ('/opt/gradstep', '/etc', '/tmp'):
    try:
        with open(os.path.join(path, '.image-check'), 'w'):
            pass
        os.unlink(os.path.join(path, '.image-check'))
        writable[path] = True
    except OSError:
        writable[path] = False
limits = {}
for key, path in (('memory', '/sys/fs/cgroup/memory.max'),
                  ('memory', '/sys/fs/cgroup/memory/memory.limit_in_bytes'),
                  ('cpu', '/sys/fs/cgroup/cpu.max'),
                  ('quota', '/sys/fs/cgroup/cpu/cpu.cfs_quota_us'),
                  ('period', '/sys/fs/cgroup/cpu/cpu.cfs_period_us')):
    try:
        limits[key] = open(path).read().strip()
    except OSError:
        pass
if 'quota' in limits and 'period' in limits:
    limits['cpu'] = limits.pop('quota') + ' ' + limits.pop('period')
print(json.dumps({'procs': procs, 'env': env, 'writable': writable, 'limits': limits}))
"""


def checks(name: str, base_url: str, app: dict, env: dict, image: str) -> None:
    logs = run(["podman", "logs", name], env=env, quiet=True)
    log = (logs.stdout + logs.stderr).decode(errors="replace")
    line = next((ln for ln in log.splitlines() if "gradstep sandbox: active:" in ln), "")
    active = set()
    match = re.search(r"active: ([^;.]*)", line)
    if match:
        active = {word.strip() for word in match.group(1).split(",")}
    check("sandbox starts strict with every OS layer",
          LAYERS <= active and "missing" not in line and "Strict" in line,
          line.split("gradstep sandbox: ", 1)[-1] or "no start-up line about the sandbox")

    status, ready = http(f"{base_url}/readyz")
    check("/readyz: a sandbox worker answers", status == 200 and ready.get("status") == "ready",
          f"{status} {ready}")

    status, answer = http(f"{base_url}/api/run", {"code": SEED})
    result = answer.get("result") or {}
    stdout = (result.get("stdout") or "").strip()
    check("POST /api/run of the seed program prints PyTorch's output",
          status == 200 and stdout == SEED_STDOUT and result.get("exit_code") == 0
          and bool(answer.get("trace")) and bool(answer.get("layout")),
          f"{status} stdout {stdout!r}, trace and layout "
          f"{'present' if answer.get('trace') and answer.get('layout') else 'missing'}")

    for what, code in HOSTILE.items():
        status, answer = http(f"{base_url}/api/run", {"code": code})
        error = (answer.get("result") or {}).get("error") or {}
        stdout = (answer.get("result") or {}).get("stdout") or ""
        check(f"a program that {what} is refused",
              status == 200 and error.get("kind") == "refused" and bool(error.get("message"))
              and "root:" not in stdout,
              f"{error.get('type')}: {error.get('message')}" if error else f"{status} {answer}")
    check("the server keeps serving after them", http(f"{base_url}/healthz")[0] == 200)

    probe = json.loads(container_exec(name, env, PROBE) or "{}")
    procs = probe.get("procs", {})
    # The probe itself runs through `podman exec`; it is not part of the server.
    server = {pid: p for pid, p in procs.items() if "image-check" not in p["cmd"]}
    config = json.loads(run(["podman", "image", "inspect", image], env=env,
                            quiet=True).stdout)[0]
    user = str(app.get("user") or config.get("Config", {}).get("User") or "")
    want_uid, _, want_gid = user.partition(":")
    check("every process runs as non-root",
          bool(server) and all(p["uid"] != "0" and p["gid"] != "0" for p in server.values()),
          ", ".join(sorted({f"uid {p['uid']} gid {p['gid']}" for p in server.values()}))
          + f" over {len(server)} processes")
    check(f"processes run as the compose/image user {user or '(none set)'}",
          bool(want_uid) and all(p["uid"] == want_uid and (not want_gid or p["gid"] == want_gid)
                                 for p in server.values()))

    compose_env = {k: str(v) for k, v in (app.get("environment") or {}).items()}
    seen = probe.get("env", {})
    wrong = {k: seen.get(k) for k, v in compose_env.items() if seen.get(k) != v}
    check("the server's environment has the compose file's values", bool(seen) and not wrong,
          f"{len(compose_env)} variables" if not wrong else f"differ: {wrong}")
    writable = probe.get("writable", {})
    if app.get("read_only"):
        check("the root file system is read-only, /tmp is writable",
              writable.get("/opt/gradstep") is False and writable.get("/etc") is False
              and writable.get("/tmp") is True, str(writable))
    if "ALL" in (app.get("cap_drop") or []):
        check("no process holds a capability",
              bool(server) and all(int(p["cap_eff"], 16) == 0 for p in server.values()))
    if any(o.startswith("no-new-privileges") for o in app.get("security_opt") or []):
        check("no process can gain privileges (no_new_privs)",
              bool(server) and all(p["nnp"] == "1" for p in server.values()))
    want = ((app.get("deploy") or {}).get("resources") or {}).get("limits") or {}
    if want:
        # What the kernel enforces (the container's cgroup), not only what podman recorded.
        seen_limits = probe.get("limits", {})
        quota, _, period = seen_limits.get("cpu", "").partition(" ")
        cpus = int(quota) / int(period) if quota.isdigit() and period.isdigit() else None
        memory = seen_limits.get("memory", "")
        check("the container's cgroup enforces the compose file's CPU and memory limits",
              cpus == float(want.get("cpus", 0))
              and memory == str(_bytes(str(want.get("memory", "0")))),
              f"cpus {cpus}, memory {memory} bytes")
    health = run(["podman", "healthcheck", "run", name], env=env, check_rc=False, quiet=True)
    check("the image's HEALTHCHECK passes", health.returncode == 0,
          (health.stdout + health.stderr).decode().strip())


def _bytes(size: str) -> int:
    units = {"": 1, "b": 1, "k": 1024, "m": 1024 ** 2, "g": 1024 ** 3}
    match = re.fullmatch(r"(\d+)([bkmg]?)b?", size.strip().lower())
    return int(match.group(1)) * units[match.group(2)] if match else -1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--base", help="use this bookworm image as PYTHON_IMAGE instead of "
                        "making one with debootstrap")
    parser.add_argument("--base-tag", default="localhost/gradstep-base:bookworm",
                        help="tag of the base made with debootstrap (default %(default)s)")
    parser.add_argument("--tag", default="localhost/gradstep:image-check",
                        help="tag of the built image (default %(default)s)")
    parser.add_argument("--no-cache", action="store_true",
                        help="build every layer afresh (pip resolves the dependencies again)")
    parser.add_argument("--start-seconds", type=float, default=180,
                        help="how long the server may take to answer /healthz")
    args = parser.parse_args()
    started = time.monotonic()

    missing = [tool for tool in ("podman", "runc", "debootstrap", "tar")
               if not shutil.which(tool) and not (tool == "debootstrap" and args.base)]
    if missing:
        print(f"image_check: needs {', '.join(missing)} (Debian: apt-get install podman runc "
              "debootstrap)", file=sys.stderr)
        return 2
    if os.geteuid() != 0:
        print("image_check: run it as root: debootstrap, chroot builds and runc need it",
              file=sys.stderr)
        return 2
    app = compose_app()

    with tempfile.TemporaryDirectory(prefix="gradstep-image-check-") as tmp:
        # No default ulimits: inside another container runc may not raise the hard limits
        # podman asks for by default, and the sandbox sets its own rlimits for each program.
        conf = Path(tmp) / "containers.conf"
        conf.write_text('[containers]\ndefault_ulimits = []\n\n[engine]\nruntime = "runc"\n')
        env = {**os.environ, "CONTAINERS_CONF": str(conf)}

        phase = time.monotonic()
        base = args.base
        if not base:
            make_base(args.base_tag, env)
            base = args.base_tag
            say(f"base {base} made in {time.monotonic() - phase:.0f} s")
        phase = time.monotonic()
        run(["podman", "build", "--isolation=chroot", "--format", "docker",
             *(["--no-cache"] if args.no_cache else []),
             "--build-arg", f"PYTHON_IMAGE={base}", "--tag", args.tag,
             "--file", str(ROOT / "Dockerfile"), str(ROOT)], env=env)
        say(f"image {args.tag} built in {time.monotonic() - phase:.0f} s")

        name = f"gradstep-image-check-{os.getpid()}"
        port = free_port()
        internal = str((app.get("environment") or {}).get("GRADSTEP_PORT", "8000"))
        run(["podman", "run", "--detach", "--runtime", "runc", "--name", name,
             "--publish", f"127.0.0.1:{port}:{internal}", *run_options(app), args.tag], env=env)
        try:
            phase = time.monotonic()
            base_url = f"http://127.0.0.1:{port}"
            up = wait_healthy(base_url, name, env, args.start_seconds)
            if check("the container serves /healthz", up,
                     f"after {time.monotonic() - phase:.0f} s" if up else "it did not answer"):
                checks(name, base_url, app, env, args.tag)
            else:
                logs = run(["podman", "logs", name], env=env, check_rc=False, quiet=True)
                sys.stdout.write((logs.stdout + logs.stderr).decode(errors="replace")[-4000:])
        finally:
            run(["podman", "rm", "--force", "--time", "5", name], env=env, check_rc=False,
                quiet=True)

    failed = [name for name, ok, _ in results if not ok]
    say(f"{len(results) - len(failed)} of {len(results)} checks passed in "
        f"{time.monotonic() - started:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
