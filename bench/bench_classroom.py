"""A class of students behind one address against one server, driven by locust.

    python bench/bench_classroom.py                      # 40 students, 300 s
    python bench/bench_classroom.py --students 40 --seconds 150 --burn 4
    python bench/bench_classroom.py --root ../before     # another checkout

The server is `gradstep serve` with its defaults (one web worker, two sandbox workers, the
rate limit on), started fresh; its lessons' start-up runs are timed from its log. Every
student comes from 127.0.0.1, as behind a school's NAT, each with its own browser token
(bench/classroom_locustfile.py says what a student does). `--burn N` keeps N CPU-bound
processes running beside the server for the whole test, to stand in for a busier machine.
The script prints one markdown table: p50 and p95 of each request kind, their count and
errors, with the load average before and after, and the server's RSS.
"""
from __future__ import annotations

import argparse
import csv
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_api import ROOT, stop
from bench_memory import rss_mb

HERE = Path(__file__).resolve().parent
KINDS = ("lesson page", "lesson open", "run lesson", "run edited")


def start(root: Path, log: Path, env: dict) -> tuple[subprocess.Popen, str, float]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    started = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "gradstep", "serve", "--port", str(port),
                             "--workers", "1"], cwd=root, env={**os.environ, **env},
                            stdout=log.open("wb"), stderr=subprocess.STDOUT,
                            start_new_session=True)
    for _ in range(600):
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return proc, f"http://127.0.0.1:{port}", started
        except OSError:
            time.sleep(0.1)
    stop(proc)
    raise SystemExit("the server did not start")


def wait_for_start_up(log: Path, started: float, within: float = 300) -> float | None:
    """Seconds from the server's start until its log says the start-up runs are done."""
    while time.monotonic() - started < within:
        if "start-up runs done" in log.read_text(errors="replace"):
            return time.monotonic() - started
        time.sleep(0.5)
    return None


def cpu_seconds(pid: int) -> float:
    """CPU time of `pid` and every process below it, with the reaped children's (the
    sandbox's forked runs are reaped by their workers, retired workers by the server)."""
    tick = os.sysconf("SC_CLK_TCK")
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += sum(int(f) for f in fields[11:15]) / tick
            for task in Path(f"/proc/{p}/task").iterdir():
                children = (task / "children").read_text().split()
                todo.extend(int(c) for c in children)
        except OSError:
            pass
    return total


def burners(n: int) -> list[subprocess.Popen]:
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=40)
    parser.add_argument("--seconds", type=int, default=300)
    parser.add_argument("--spawn-rate", type=float, default=2.0, help="students arriving a second")
    parser.add_argument("--burn", type=int, default=0, help="CPU-bound processes beside it")
    parser.add_argument("--root", type=Path, default=ROOT, help="serve this checkout instead")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="classroom-"))
    hot = burners(args.burn)
    load_before = os.getloadavg()
    proc, base, started = start(args.root, work / "server.log", {"GRADSTEP_ACCESS_LOG": "0"})
    try:
        start_up = wait_for_start_up(work / "server.log", started)
        rss_before = rss_mb(proc.pid)
        cpu_before, t0 = cpu_seconds(proc.pid), time.monotonic()
        subprocess.run([sys.executable, "-m", "locust", "-f", str(HERE / "classroom_locustfile.py"),
                        "--headless", "-u", str(args.students), "-r", str(args.spawn_rate),
                        "-t", f"{args.seconds}s", "--host", base, "--csv", str(work / "load"),
                        "--only-summary", "--stop-timeout", "30", "--exit-code-on-error", "0"],
                       check=True, capture_output=True, timeout=args.seconds + 300)
        rss_after = rss_mb(proc.pid)
        busy = (cpu_seconds(proc.pid) - cpu_before) / (time.monotonic() - t0)
        load_after = os.getloadavg()
        log = (work / "server.log").read_text(errors="replace")
    finally:
        stop(proc)
        for p in hot:
            p.kill()
            p.wait()
    with open(work / "load_stats.csv", newline="") as f:
        rows = {r["Name"]: r for r in csv.DictReader(f)}
    print(f"{args.students} students from one address, {args.seconds} s, {args.burn} CPU "
          f"burners; load average {load_before[0]:.1f} before, {load_after[0]:.1f} "
          f"(1 min) / {load_after[1]:.1f} (5 min) at the end; start-up runs done "
          f"{f'after {start_up:.0f} s' if start_up is not None else 'not within 300 s'}; "
          f"web process RSS {rss_before:.0f} -> {rss_after:.0f} MB; the server and its "
          f"sandbox used {busy:.2f} cores on average")
    print("| request | count | errors | p50 ms | p95 ms | max ms |")
    print("|---|---|---|---|---|---|")
    for kind in (*KINDS, "Aggregated"):
        r = rows.get(kind)
        if r:
            print(f"| {kind} | {r['Request Count']} | {r['Failure Count']} | {r['50%']} | "
                  f"{r['95%']} | {r['Max Response Time']} |")
    failures = work / "load_failures.csv"
    if failures.exists():
        for line in failures.read_text().splitlines()[1:6]:
            print("failure:", line[:300])
    if "could not be run at start-up" in log:
        print("start-up failures:", [ln for ln in log.splitlines() if "could not be run" in ln])
    return 0


if __name__ == "__main__":
    sys.exit(main())
