"""Write image-requirements.txt, the lock the container image installs its Python packages from,
or check that it still agrees with pyproject.toml.

    python dev/lock_image.py           # resolve afresh and rewrite the lock (needs the index)
    python dev/lock_image.py --check   # offline; ./dev.sh lint runs it

The lock pins every package `pip install .` would bring into the image, the runtime
dependencies of [project] and the build backend of [build-system], to one version each, with
the sha256 of the wheel pip picks on each platform the image is built for (CPython 3.11 on
Linux x86_64 and aarch64, glibc up to Debian bookworm's). The Dockerfile installs it with
`pip install --require-hashes --no-deps`, so two builds install the same files, and a file
that changed on the index fails the build instead of entering the image.

Resolution asks pip itself: `pip install --dry-run --report` for the first platform, then the
others constrained to its pins, so every platform gets the same versions (it fails, saying
which package, when one has no wheel of that version for a platform). Run it on Linux: pip
evaluates environment markers (`sys_platform == 'linux'`) for the machine it runs on.

The check fails when the requirements the lock was made from are not pyproject.toml's, when a
requirement that applies on Linux has no pin or a pin outside its range, or when a pin has no
hash: after changing dependencies in pyproject.toml, run this script and commit the lock.
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "image-requirements.txt"
PYPROJECT = ROOT / "pyproject.toml"
PYTHON = "3.11"
# glibc versions a manylinux wheel may need: 2.17 (manylinux2014) up to Debian bookworm's 2.36,
# newest first, the order pip on the image's base prefers them in.
GLIBC = [(2, minor) for minor in range(36, 16, -1)]
ARCHES = ("x86_64", "aarch64")
# Markers are evaluated for the image: CPython 3.11 on Linux.
IMAGE_ENV = {"sys_platform": "linux", "platform_system": "Linux", "os_name": "posix",
             "python_version": PYTHON, "implementation_name": "cpython",
             "platform_python_implementation": "CPython", "platform_machine": "x86_64"}
INPUT = "# input: "
BUILD_INPUT = "# input (build): "

HEADER = """\
# The Python packages of the container image: every one `pip install .` brings in, one version
# each, with the sha256 of the wheel pip picks for CPython {python} on Linux ({arches}).
# The Dockerfile installs them with `pip install --require-hashes --no-deps`.
# Written by `python dev/lock_image.py` from the requirements below (pyproject.toml's
# [project] dependencies and [build-system] requires); do not edit by hand. `./dev.sh lint`
# fails when pyproject.toml and these disagree: then run the script again.
#
"""


def inputs(pyproject_text: str) -> tuple[list[str], list[str]]:
    """pyproject.toml's runtime requirements and build requirements."""
    data = tomllib.loads(pyproject_text)
    return list(data["project"]["dependencies"]), list(data["build-system"]["requires"])


# ----- reading and checking the lock -----

def parse_lock(text: str) -> tuple[list[str], list[str], dict[str, tuple[str, list[str]]]]:
    """(runtime inputs, build inputs, {canonical name: (version, sha256 hashes)})."""
    runtime = [line[len(INPUT):].strip() for line in text.splitlines()
               if line.startswith(INPUT)]
    build = [line[len(BUILD_INPUT):].strip() for line in text.splitlines()
             if line.startswith(BUILD_INPUT)]
    body = "\n".join(line for line in text.splitlines() if not line.startswith("#"))
    pins: dict[str, tuple[str, list[str]]] = {}
    for entry in body.replace("\\\n", " ").splitlines():
        words = entry.split()
        if not words:
            continue
        name, sep, version = words[0].partition("==")
        if not sep:
            raise ValueError(f"lock entry without an exact version: {words[0]!r}")
        hashes = [w.removeprefix("--hash=sha256:") for w in words[1:]
                  if w.startswith("--hash=sha256:")]
        pins[canonicalize_name(name)] = (version, hashes)
    return runtime, build, pins


def disagreements(pyproject_text: str, lock_text: str) -> list[str]:
    """What makes the lock unfit for pyproject.toml, one sentence each; empty when it fits."""
    runtime, build = inputs(pyproject_text)
    try:
        locked_runtime, locked_build, pins = parse_lock(lock_text)
    except ValueError as exc:
        return [str(exc)]
    found = []
    for kind, wanted, locked in (("dependency", runtime, locked_runtime),
                                 ("build requirement", build, locked_build)):
        for req in sorted(set(wanted) - set(locked)):
            found.append(f"{kind} {req!r} is in pyproject.toml but the lock was not made from it")
        for req in sorted(set(locked) - set(wanted)):
            found.append(f"{kind} {req!r} was locked but is no longer in pyproject.toml")
        for text in wanted:
            req = Requirement(text)
            if req.marker is not None and not req.marker.evaluate(IMAGE_ENV):
                continue
            pin = pins.get(canonicalize_name(req.name))
            if pin is None:
                found.append(f"{kind} {text!r} has no pin in the lock")
            elif not req.specifier.contains(Version(pin[0]), prereleases=True):
                found.append(f"{kind} {text!r} does not allow the locked {req.name}=={pin[0]}")
    for name, (version, hashes) in sorted(pins.items()):
        if not hashes:
            found.append(f"{name}=={version} has no sha256 hash")
        bad = [h for h in hashes if not re.fullmatch(r"[0-9a-f]{64}", h)]
        if bad:
            found.append(f"{name}=={version} has a malformed hash: {bad[0]!r}")
    return found


# ----- resolving afresh -----

def platform_tags(arch: str) -> list[str]:
    tags = [f"manylinux_{major}_{minor}_{arch}" for major, minor in GLIBC]
    return tags + [f"manylinux2014_{arch}", f"linux_{arch}"]


def resolve(arch: str, requirements: Path, constraints: Path | None,
            scratch: Path) -> dict[str, tuple[str, str]]:
    """{canonical name: (version, sha256 of the wheel)} as pip resolves the requirements for a
    CPython 3.11 on Linux `arch`, wheels only."""
    report = scratch / f"report-{arch}.json"
    cmd = [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed",
           "--quiet", "--disable-pip-version-check", "--report", str(report),
           # --target: pip takes platform options only for an install elsewhere; nothing is
           # written there on a dry run
           "--target", str(scratch / "target"), "--only-binary=:all:",
           "--python-version", PYTHON, "--implementation", "cp",
           "--abi", "cp" + PYTHON.replace(".", ""), "--abi", "abi3", "--abi", "none",
           "-r", str(requirements)]
    for tag in platform_tags(arch):
        cmd += ["--platform", tag]
    if constraints is not None:
        cmd += ["-c", str(constraints)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode:
        sys.stderr.write(done.stderr[-3000:])
        raise SystemExit(f"lock_image: pip could not resolve the image's packages for {arch}")
    found = {}
    for item in json.loads(report.read_text())["install"]:
        meta, info = item["metadata"], item["download_info"]
        digest = info.get("archive_info", {}).get("hashes", {}).get("sha256")
        if digest is None:
            raise SystemExit(f"lock_image: pip reported no sha256 for {info['url']}")
        found[canonicalize_name(meta["name"])] = (meta["version"], digest)
    return found


def write_lock() -> None:
    if sys.platform != "linux":
        raise SystemExit("lock_image: run this on Linux; pip evaluates markers such as "
                         "`sys_platform == 'linux'` for the machine it runs on")
    runtime, build = inputs(PYPROJECT.read_text())
    with tempfile.TemporaryDirectory(prefix="gradstep-lock-") as tmp:
        scratch = Path(tmp)
        requirements = scratch / "requirements.txt"
        requirements.write_text("\n".join(runtime + build) + "\n")
        print(f"lock_image: resolving for {ARCHES[0]} ...", flush=True)
        first = resolve(ARCHES[0], requirements, None, scratch)
        constraints = scratch / "constraints.txt"
        constraints.write_text("".join(f"{n}=={v}\n" for n, (v, _) in sorted(first.items())))
        hashes = {name: {digest} for name, (_, digest) in first.items()}
        for arch in ARCHES[1:]:
            print(f"lock_image: resolving for {arch} with the same versions ...", flush=True)
            other = resolve(arch, requirements, constraints, scratch)
            if set(other) != set(first):
                raise SystemExit(f"lock_image: {arch} needs other packages than {ARCHES[0]}: "
                                 f"{sorted(set(other) ^ set(first))}")
            for name, (_, digest) in other.items():
                hashes[name].add(digest)
    lines = [HEADER.format(python=PYTHON, arches=" and ".join(ARCHES))]
    lines += [f"{INPUT}{req}\n" for req in runtime]
    lines += [f"{BUILD_INPUT}{req}\n" for req in build]
    for name in sorted(first):
        entry = [f"{name}=={first[name][0]}"]
        entry += [f"    --hash=sha256:{digest}" for digest in sorted(hashes[name])]
        lines.append("\n" + " \\\n".join(entry))
    LOCK.write_text("".join(lines) + "\n")
    problems = disagreements(PYPROJECT.read_text(), LOCK.read_text())
    if problems:
        raise SystemExit("lock_image: the new lock does not fit pyproject.toml:\n  "
                         + "\n  ".join(problems))
    print(f"lock_image: wrote {LOCK.name}: {len(first)} packages, "
          f"{sum(map(len, hashes.values()))} wheels")


def check() -> int:
    if not LOCK.is_file():
        print(f"lock_image: {LOCK.name} is missing; run `python dev/lock_image.py`")
        return 1
    problems = disagreements(PYPROJECT.read_text(), LOCK.read_text())
    for problem in problems:
        print(f"lock_image: {problem}")
    if problems:
        print(f"lock_image: {LOCK.name} disagrees with pyproject.toml; "
              "run `python dev/lock_image.py` and commit the lock")
        return 1
    print(f"lock_image: {LOCK.name} agrees with pyproject.toml")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="only check the lock against pyproject.toml (offline)")
    if parser.parse_args().check:
        return check()
    write_lock()
    return 0


if __name__ == "__main__":
    sys.exit(main())
