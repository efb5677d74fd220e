"""Tracing overhead: a chain of tiny ops (plus its backward) untraced vs traced.

    python bench/bench_trace.py [--ops 2000] [--repeat 7]

Prints the median wall time of each and their ratio; the target (issue 4) is at most 1.5x,
aiming for 1.3x. "Traced" includes building the trace (finish) and dumping it to bytes,
since that is what a traced run costs the server. Not a test: timings are machine-dependent.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine as torch  # noqa: E402
from engine import _events  # noqa: E402
from runner import trace as T  # noqa: E402
from runner.recorder import Recorder  # noqa: E402

SOURCE = """\
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x
for i in range(N):
    y = y * 1.0001
y.sum().backward()
"""


def run(n: int, traced: bool) -> float:
    code = compile(SOURCE, "chain.py", "exec")
    env = {"torch": torch, "N": n}
    start = time.perf_counter()
    if traced:
        rec = Recorder(SOURCE, "chain.py")
        old = _events.set_listener(rec)
        try:
            exec(code, env)
        finally:
            _events.set_listener(old)
        T.dump(rec.finish(0))
    else:
        exec(code, env)
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ops", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    run(args.ops, False), run(args.ops, True)  # warm up imports and caches
    plain = statistics.median(run(args.ops, False) for _ in range(args.repeat))
    traced = statistics.median(run(args.ops, True) for _ in range(args.repeat))
    print(f"{args.ops}-op chain + backward: untraced {plain * 1e3:.1f} ms, "
          f"traced {traced * 1e3:.1f} ms, ratio {traced / plain:.2f}x")


if __name__ == "__main__":
    main()
