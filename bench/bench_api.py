"""/api/run latency and throughput over real HTTP: p50/p99 for the seed programs at 1 and 20
concurrent clients, and requests per second, against a `gradstep serve` this script starts.

    python bench/bench_api.py                       # 1 and 20 clients, cache on and off
    python bench/bench_api.py --clients 1 --rounds 3
    python bench/bench_api.py --compare OTHER_CHECKOUT --blocks 4 --clients 1 --uncached

"cached" repeats programs the server has answered before (the source-hash cache);
"uncached" makes every request new by appending a comment line, so each one runs in the
sandbox and is laid out. The rate limit is lifted for the run. Target: p50 at most
30 ms for a seed snippet at 1 client.

`--compare` serves another checkout (e.g. `git worktree add ../before HEAD~3`) next to this
one and measures them in alternating blocks, so that both see the same noise of a shared
machine; only one server is measured at a time. Compare the two rows of one run, not runs.
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


def start_server(workers: int, pool: int, root: Path = ROOT) -> tuple[subprocess.Popen, str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "GRADSTEP_POOL_SIZE": str(pool), "GRADSTEP_RATE_LIMIT": "0",
           "GRADSTEP_ACCESS_LOG": "0", "GRADSTEP_QUEUE_TIMEOUT": "60"}
    proc = subprocess.Popen([sys.executable, "-m", "gradstep", "serve", "--port", str(port),
                             "--workers", str(workers)], cwd=root, env=env,
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


def one(client: httpx.Client, code: str) -> tuple[float, str]:
    """Seconds for one POST /api/run, and the answer's Server-Timing header."""
    t = time.perf_counter()
    r = client.post("/api/run", json={"code": code})
    r.raise_for_status()
    return time.perf_counter() - t, r.headers.get("server-timing", "")


def stages(headers: list[str]) -> str:
    """Median of each Server-Timing stage (wait, run, layout, encode), in ms."""
    found: dict[str, list[float]] = {}
    for header in headers:
        for part in filter(None, (p.strip() for p in header.split(","))):
            name, _, dur = part.partition(";dur=")
            if dur:
                found.setdefault(name, []).append(float(dur))
    return " ".join(f"{k} {statistics.median(v):.1f}" for k, v in found.items())


def jobs_for(rounds: int, cached: bool) -> list[str]:
    programs = [p.read_text(encoding="utf-8") for p in SEEDS]
    return [code if cached else f"{code}\n# run {r}-{i}-{time.time_ns()}\n"
            for r in range(rounds) for i, code in enumerate(programs)]


def timed(base: str, clients: int, jobs: list[str], cached: bool) -> tuple[list, float]:
    """Each request's (seconds, Server-Timing), and the wall time of all of them."""
    if cached:
        with httpx.Client(base_url=base, timeout=120) as warm:
            for code in dict.fromkeys(jobs):
                one(warm, code)
    with ThreadPoolExecutor(clients) as ex, httpx.Client(base_url=base, timeout=120,
                                                         limits=httpx.Limits(
                                                             max_connections=clients)) as c:
        t0 = time.perf_counter()
        times = list(ex.map(lambda code: one(c, code), jobs))
        return times, time.perf_counter() - t0


def stats(answers: list[tuple[float, str]], wall: float) -> dict:
    times = sorted(t for t, _ in answers)
    return {"n": len(times), "p50": statistics.median(times) * 1000,
            "p99": times[min(len(times) - 1, int(len(times) * 0.99))] * 1000,
            "rps": len(times) / wall, "stages": stages([h for _, h in answers])}


def measure(base: str, clients: int, rounds: int, cached: bool) -> dict:
    return stats(*timed(base, clients, jobs_for(rounds, cached), cached))


def row(label: str, clients: int, cached: bool, m: dict) -> str:
    return (f"{label:>8} {clients:>7} {'cached' if cached else 'uncached':>9} {m['n']:>8} "
            f"{m['p50']:>8.1f} {m['p99']:>8.1f} {m['rps']:>7.1f}  {m['stages']}")


HEADER = (f"{'server':>8} {'clients':>7} {'mode':>9} {'requests':>8} {'p50 ms':>8} "
          f"{'p99 ms':>8} {'req/s':>7}  server-side stage medians, ms (Server-Timing)")


def compare(servers: dict[str, str], clients: int, cached: bool, blocks: int,
            rounds: int) -> None:
    """Alternate blocks of the same requests between the servers (ABBA order)."""
    times = {name: [] for name in servers}
    walls = dict.fromkeys(servers, 0.0)
    names = list(servers)
    for block in range(blocks):
        jobs = jobs_for(rounds, cached)
        for name in (names if block % 2 == 0 else names[::-1]):
            t, wall = timed(servers[name], clients, jobs, cached)
            times[name] += t
            walls[name] += wall
    for name in names:
        print(row(name, clients, cached, stats(times[name], walls[name])), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, nargs="*", default=[1, 20])
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--workers", type=int, default=1, help="uvicorn workers")
    ap.add_argument("--pool", type=int, default=2, help="sandbox workers per web worker")
    ap.add_argument("--compare", type=Path, help="another checkout, served and measured "
                    "in alternating blocks next to this one")
    ap.add_argument("--blocks", type=int, default=4, help="blocks per server with --compare")
    ap.add_argument("--uncached", action="store_true", help="only uncached requests")
    ap.add_argument("--exclude", nargs="*", default=[], metavar="TEXT",
                    help="leave out seeds whose file name contains TEXT (e.g. the 3.5 s "
                    "training loop, which otherwise sets the throughput at 20 clients)")
    args = ap.parse_args()
    SEEDS[:] = [s for s in SEEDS if not any(text in s.name for text in args.exclude)]
    roots = {"this": ROOT, **({"other": args.compare.resolve()} if args.compare else {})}
    servers, procs = {}, []
    try:
        for name, root in roots.items():
            proc, servers[name] = start_server(args.workers, args.pool, root)
            procs.append(proc)
        print(f"{len(SEEDS)} seed programs, {args.workers} web worker(s) x {args.pool} "
              f"sandbox worker(s), {os.cpu_count()} CPUs; wall-clock times")
        print(HEADER)
        for clients in args.clients:
            for cached in (False,) if args.uncached else (False, True):
                if args.compare:
                    compare(servers, clients, cached, args.blocks, args.rounds)
                else:
                    print(row("this", clients, cached,
                              measure(servers["this"], clients, args.rounds, cached)),
                          flush=True)
    finally:
        for proc in procs:
            stop(proc)


if __name__ == "__main__":
    main()
