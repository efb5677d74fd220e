"""What a learner waits for: `POST /api/run` per lesson and per loop size, never from the
cache, with the server's own Server-Timing stages, against a `gradstep serve` it starts.

    python bench/bench_user.py                      # every lesson, the loops, the chains
    python bench/bench_user.py --runs 5 --only lessons
    python bench/bench_user.py --only loops --markdown

Each request sends the program with a new trailing comment, and the server runs with its
caches off (`GRADSTEP_LAYOUT_CACHE_SIZE=0`), so every request is run and laid out;
`--layout-cache` keeps the layout cache, keyed by the graph's shape, which then answers every
request after a program's first, as it does for a learner's edited program. For every
program it prints the median wall time of the request over HTTP, the median of each
Server-Timing stage (`wait` for a free sandbox worker, `run` in the sandbox with its trace,
`layout` with Graphviz, `encode` of the JSON), what is left for HTTP and the framework, the
answer's bytes, and the events and boxes it carries. The first line says on what machine
and when it ran, and each row the load average. Not a test: a shared machine's load moves
every figure; compare rows of one run.
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import sys
import time
import tomllib
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_api import start_server, stop
from bench_loops import LINREG

ROOT = Path(__file__).resolve().parents[1]
STAGES = ("wait", "run", "layout", "encode")


def lessons() -> list[tuple[str, str]]:
    out = []
    for path in sorted((ROOT / "app" / "lessons").glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        out.append((f"lesson {data['id']}", data["program"]))
    return out


def loops() -> list[tuple[str, str]]:
    return [(f"linear regression, {n:,} epochs", LINREG.replace("EPOCHS", str(n)))
            for n in (10, 100, 1000, 10000)]


def chains() -> list[tuple[str, str]]:
    out = []
    for n in (100, 250, 1000, 5000):
        out.append((f"chain of {n:,} ops", "import torch\nx = torch.tensor([1.0, 2.0], "
                    "requires_grad=True)\ny = x\n"
                    f"for i in range({n}):\n    y = y * 1.001\ny.sum().backward()\n"
                    "print(x.grad)\n"))
    return out


def stages(header: str) -> dict[str, float]:
    """'run;dur=12.5, layout;dur=2.5' -> {"run": 12.5, "layout": 2.5}"""
    out = {}
    for part in header.split(","):
        name, _, rest = part.strip().partition(";")
        if rest.startswith("dur="):
            out[name] = float(rest[4:])
    return out


def measure(client: httpx.Client, base: str, source: str, runs: int, tag: int) -> dict:
    walls, timings, size, body = [], [], 0, None
    for i in range(runs):
        code = f"{source}\n# {tag}-{i}-{time.time_ns()}\n"   # never the same program twice
        start = time.perf_counter()
        resp = client.post(base + "/api/run", json={"code": code})
        walls.append((time.perf_counter() - start) * 1e3)
        resp.raise_for_status()
        timings.append(stages(resp.headers.get("server-timing", "")))
        size, body = len(resp.content), resp.json()
    row = {"p50": statistics.median(walls), "bytes": size,
           "events": len(body["trace"]["events"]) if body["trace"] else 0,
           "boxes": len(body["layout"]["nodes"]) if body["layout"] else None,
           "error": (body["result"].get("error") or {}).get("type")}
    for stage in STAGES:
        row[stage] = statistics.median(t.get(stage, 0.0) for t in timings)
    row["rest"] = row["p50"] - sum(row[s] for s in STAGES)
    return row


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, "
            f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3, help="requests per program (median)")
    ap.add_argument("--only", default="lessons,loops,chains")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    ap.add_argument("--layout-cache", action="store_true",
                    help="keep the server's caches (the default size) instead of none")
    args = ap.parse_args()
    if not args.layout_cache:
        os.environ["GRADSTEP_LAYOUT_CACHE_SIZE"] = "0"   # start_server passes it on
    programs = []
    for group in args.only.split(","):
        programs += {"lessons": lessons, "loops": loops, "chains": chains}[group]()
    print(machine())
    proc, base = start_server(1, 2)
    try:
        head = ("program", "p50 ms", "wait", "run", "layout", "encode", "rest", "bytes",
                "events", "boxes")
        if args.markdown:
            print("| " + " | ".join(head) + " |\n|" + "---|" * len(head))
        else:
            print(f"{head[0]:34}" + "".join(f"{h:>9}" for h in head[1:]))
        with httpx.Client(timeout=120) as client:
            for tag, (name, source) in enumerate(programs):
                load = os.getloadavg()[0]
                r = measure(client, base, source, args.runs, tag)
                label = name + (f" ({r['error']})" if r["error"] else "")
                boxes = "-" if r["boxes"] is None else r["boxes"]
                cells = [f"{r['p50']:.1f}", *(f"{r[s]:.1f}" for s in (*STAGES, "rest")),
                         f"{r['bytes']:,}", str(r["events"]), str(boxes)]
                if args.markdown:
                    print("| " + " | ".join([label, *cells]) + f" |  <!-- load {load:.1f} -->")
                else:
                    print(f"{label:34}" + "".join(f"{c:>9}" for c in cells)
                          + f"   load {load:.1f}", flush=True)
    finally:
        stop(proc)


if __name__ == "__main__":
    main()
