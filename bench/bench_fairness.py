"""Fairness under hostile load, over real HTTP on loopback: an honest client's latency alone,
then while another client floods the server with infinite loops.

    python bench/bench_fairness.py                  # 15 s alone, then 45 s under the flood
    python bench/bench_fairness.py --flooders 12 --seconds 30
    python bench/bench_fairness.py --root ../before   # another checkout, e.g. `git archive`

The server is `gradstep serve` with its defaults (two sandbox workers, the 5 s CPU limit, the
20 s queue timeout) except the rate limit, which is lifted so that the flood is as hard as
one address can make it. The flooder sends from 127.0.0.2, the honest client from 127.0.0.1,
so the server sees two clients. The honest client runs the seed programs one after another,
each made new by a comment (no cache hits), with a short pause between them, as a learner
does. Every phase is bounded by --seconds; the script prints one table and exits.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_api import ROOT, SEEDS, stop

INFINITE = "while True:\n    pass\n# {tag}\n"


def start_server(root: Path = ROOT) -> tuple[subprocess.Popen, str]:
    """`gradstep serve` from checkout `root` with its defaults but no rate limit, on a free
    loopback port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "GRADSTEP_RATE_LIMIT": "0", "GRADSTEP_ACCESS_LOG": "0"}
    proc = subprocess.Popen([sys.executable, "-m", "gradstep", "serve", "--port", str(port),
                             "--workers", "1"], cwd=root, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return proc, base
        except OSError:
            time.sleep(0.2)
    stop(proc)
    raise SystemExit("the server did not start")


def post_run(base: str, source_ip: str, code: str, timeout: float = 120) -> tuple[int, dict]:
    host, port = base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=timeout,
                                      source_address=(source_ip, 0))
    try:
        conn.request("POST", "/api/run", json.dumps({"code": code}),
                     {"Content-Type": "application/json"})
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


def flood(base: str, stop_flag: threading.Event, outcomes: Counter, worker: int) -> None:
    i = 0
    while not stop_flag.is_set():
        i += 1
        status, body = post_run(base, "127.0.0.2", INFINITE.format(tag=f"{worker}.{i}"))
        if status == 200:
            outcomes[(body["result"]["error"] or {}).get("limit", "ok")] += 1
        else:
            outcomes[str(status)] += 1
            time.sleep(0.05)        # a 503 comes back at once; do not spin the CPU on it


def honest(base: str, seconds: float, pause: float, tag: str) -> tuple[list[float], Counter]:
    latencies, statuses = [], Counter()
    sources = [p.read_text() for p in SEEDS]
    deadline, i = time.monotonic() + seconds, 0
    while time.monotonic() < deadline:
        code = sources[i % len(sources)] + f"\n# {tag} {i}\n"
        started = time.perf_counter()
        status, body = post_run(base, "127.0.0.1", code)
        statuses[status] += 1
        if status == 200:            # a seed that raises on purpose is an answer too
            latencies.append(time.perf_counter() - started)
        i += 1
        time.sleep(pause)
    return latencies, statuses


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def row(name: str, latencies: list[float], statuses: Counter) -> str:
    if not latencies:
        return f"| {name} | 0 | - | - | {dict(statuses)} |"
    return (f"| {name} | {len(latencies)} | {statistics.median(latencies) * 1000:.0f} | "
            f"{percentile(latencies, 0.95) * 1000:.0f} | {dict(statuses)} |")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=45, help="length of the flood phase")
    parser.add_argument("--alone", type=float, default=15, help="length of the quiet phase")
    parser.add_argument("--flooders", type=int, default=6, help="concurrent infinite loops")
    parser.add_argument("--pause", type=float, default=0.3, help="honest think time, s")
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="serve this checkout instead (an older commit, for a before/after)")
    args = parser.parse_args(argv)

    proc, base = start_server(args.root)
    try:
        alone = honest(base, args.alone, args.pause, "alone")
        stop_flag, outcomes = threading.Event(), Counter()
        threads = [threading.Thread(target=flood, args=(base, stop_flag, outcomes, w))
                   for w in range(args.flooders)]
        for t in threads:
            t.start()
        try:
            time.sleep(1.0)                     # let the loops take the workers
            flooded = honest(base, args.seconds, args.pause, "flooded")
        finally:
            stop_flag.set()
            for t in threads:
                t.join(120)
    finally:
        stop(proc)
    print("| honest client | answered | p50 ms | p95 ms | statuses |")
    print("|---|---|---|---|---|")
    print(row("alone", *alone))
    print(row(f"while {args.flooders} loops flood", *flooded))
    print(f"flood outcomes: {dict(outcomes)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
