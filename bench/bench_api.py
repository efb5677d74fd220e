"""/api/run latency and throughput over real HTTP: p50/p99 for the seed programs at 1 and 20
concurrent clients, and requests per second, against a `gradstep serve` this script starts.

    python bench/bench_api.py                       # 1 and 20 clients, cache on and off
    python bench/bench_api.py --clients 1 --rounds 3

"cached" repeats programs the server has answered before (the source-hash cache);
"uncached" makes every request new by appending a comment line, so each one runs in the
sandbox and is laid out. The rate limit is lifted for the run. Target (issue 5): p50 at most
30 ms for a seed snippet at 1 client.
"""
from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
SEEDS = sorted((ROOT / "tests" / "oracle" / "cases").glob("s00*_*.py"))


def start_server(workers: int, pool: int) -> tuple[subprocess.Popen, str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "GRADSTEP_POOL_SIZE": str(pool), "GRADSTEP_RATE_LIMIT": "0",
           "GRADSTEP_ACCESS_LOG": "0", "GRADSTEP_QUEUE_TIMEOUT": "60"}
    proc = subprocess.Popen([sys.executable, "-m", "app", "serve", "--port", str(port),
                             "--workers", str(workers)], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            if httpx.get(base + "/readyz", timeout=2).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    stop(proc)
    raise SystemExit("the server did not become ready")


def stop(proc: subprocess.Popen) -> None:
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)


def one(client: httpx.Client, code: str) -> float:
    t = time.perf_counter()
    r = client.post("/api/run", json={"code": code})
    r.raise_for_status()
    return time.perf_counter() - t


def measure(base: str, clients: int, rounds: int, cached: bool) -> dict:
    programs = [p.read_text(encoding="utf-8") for p in SEEDS]
    jobs = []
    for r in range(rounds):
        for i, code in enumerate(programs):
            jobs.append(code if cached else f"{code}\n# run {r}-{i}-{time.time_ns()}\n")
    with httpx.Client(base_url=base, timeout=120) as warm:
        if cached:
            for code in programs:
                one(warm, code)
    with ThreadPoolExecutor(clients) as ex, httpx.Client(base_url=base, timeout=120,
                                                         limits=httpx.Limits(
                                                             max_connections=clients)) as c:
        t0 = time.perf_counter()
        times = sorted(ex.map(lambda code: one(c, code), jobs))
        wall = time.perf_counter() - t0
    return {"n": len(times), "p50": statistics.median(times) * 1000,
            "p99": times[min(len(times) - 1, int(len(times) * 0.99))] * 1000,
            "rps": len(times) / wall}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, nargs="*", default=[1, 20])
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--workers", type=int, default=1, help="uvicorn workers")
    ap.add_argument("--pool", type=int, default=2, help="sandbox workers per web worker")
    args = ap.parse_args()
    proc, base = start_server(args.workers, args.pool)
    try:
        print(f"{len(SEEDS)} seed programs, {args.workers} web worker(s) x {args.pool} "
              f"sandbox worker(s), {os.cpu_count()} CPUs")
        print(f"{'clients':>7} {'mode':>9} {'requests':>8} {'p50 ms':>8} {'p99 ms':>8} "
              f"{'req/s':>7}")
        for clients in args.clients:
            for cached in (False, True):
                m = measure(base, clients, args.rounds, cached)
                print(f"{clients:>7} {'cached' if cached else 'uncached':>9} {m['n']:>8} "
                      f"{m['p50']:>8.1f} {m['p99']:>8.1f} {m['rps']:>7.1f}", flush=True)
    finally:
        stop(proc)


if __name__ == "__main__":
    main()
