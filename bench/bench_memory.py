"""The server's memory under a stream of distinct programs with large answers, over real HTTP.

    python bench/bench_memory.py                    # 150 programs against `gradstep serve`
    python bench/bench_memory.py --programs 300 --cache-bytes 16777216
    python bench/bench_memory.py --root ../before   # another checkout, e.g. `git archive`
    python bench/bench_memory.py --programs 50 --laid-out   # 2,000-box graphs, each drawn

Each program is new (a comment makes its source, and so its cache key, different) and builds
a long graph whose trace reaches the recorder's 2 MB cap, the largest answer a run can have.
Every answer can be cached, so without a byte bound the answer cache grows by one large
answer per request until its entry bound. The script prints the size of one answer (as JSON
and gzip-compressed) and the resident memory of the web process (one web worker; the sandbox
workers are separate processes) at the start, every 25 programs (10 with --laid-out), and at
the end. With --laid-out each program is a chain of 940-990 ops, about 2,000 boxes, short
enough to be laid out, and of a length of its own, so no layout is reused either: each
answer carries a new 2,000-box picture, the largest the server draws.
"""
from __future__ import annotations

import argparse
import gzip
import os
import sys
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_api import ROOT, stop
from bench_fairness import start_server

PROGRAM = """import torch
x = torch.randn(4, requires_grad=True)
y = x
for i in range(1500):
    y = y * 1.0001 + 0.001
y.sum().backward()
print(x.grad)
# {tag}
"""


LAID_OUT = """import torch
x = torch.randn(4, requires_grad=True)
y = x
for i in range({ops}):
    y = y * 1.0001
y.sum().backward()
print(x.grad)
"""


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--programs", type=int, default=150)
    parser.add_argument("--cache-bytes", type=int, default=None,
                        help="GRADSTEP_ANSWER_CACHE_BYTES for the server (default: its own)")
    parser.add_argument("--root", type=Path, default=ROOT, help="serve this checkout instead")
    parser.add_argument("--laid-out", action="store_true",
                        help="2,000-box graphs of distinct shapes, each laid out")
    args = parser.parse_args(argv)
    every = 10 if args.laid_out else 25
    if args.cache_bytes is not None:
        os.environ["GRADSTEP_ANSWER_CACHE_BYTES"] = str(args.cache_bytes)
    load_before = os.getloadavg()[0]
    proc, base = start_server(args.root)
    samples = []
    try:
        with httpx.Client(base_url=base, timeout=120) as client:
            client.get("/healthz")
            time.sleep(20)      # the server's start-up runs of the lessons settle first
            samples.append((0, rss_mb(proc.pid)))
            started = time.monotonic()
            for i in range(args.programs):
                code = LAID_OUT.format(ops=940 + i) if args.laid_out else PROGRAM.format(tag=i)
                r = client.post("/api/run", json={"code": code},
                                headers={"accept-encoding": "identity"})
                r.raise_for_status()
                if i == 0:
                    plain, packed = len(r.content), len(gzip.compress(r.content, 6))
                if i == 0 and args.laid_out and not r.json()["layout"]:
                    raise SystemExit("the first program was not laid out: "
                                     f"{r.json()['layout_note']}")
                if (i + 1) % every == 0 or i + 1 == args.programs:
                    samples.append((i + 1, rss_mb(proc.pid)))
            elapsed = time.monotonic() - started
    finally:
        stop(proc)
    print(f"one answer: {plain / 1e6:.2f} MB as JSON, {packed / 1e6:.2f} MB gzip-compressed; "
          f"{args.programs} programs in {elapsed:.0f} s; load average {load_before:.1f} before, "
          f"{os.getloadavg()[0]:.1f} after")
    print("| programs answered | " + " | ".join(str(n) for n, _ in samples) + " |")
    print("|---|" + "---|" * len(samples))
    print("| web process RSS, MB | " + " | ".join(f"{m:.0f}" for _, m in samples) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
