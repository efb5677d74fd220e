"""The engine benchmark table: each workload on the engine, traced engine, real PyTorch
(when a development interpreter with torch is given) and hand-written numpy, side by side.

    python bench/run.py                                   # engine, engine-traced, numpy
    python bench/run.py --torch-python PATH/TO/python     # ... and PyTorch
                                      # (or set GRADSTEP_TORCH_PYTHON)
    python bench/run.py --rounds 5 W1 W2
    python bench/run.py --cpu-time ...                    # CPU time: for a loaded machine

Every backend runs in its own process (bench/harness.py), one BLAS/OpenMP thread each, and the
backends take turns round by round so that a noisy neighbour slows them all alike; the table
shows the median over rounds and the ratios engine/torch, engine/numpy and traced/engine.
W5 runs one process per graph size so each size reports its own peak memory.
Targets: W1 and W2 at most 0.8x PyTorch; W3 and W4 within 1.1x numpy; W5 linear;
tracing at most 1.3x.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROWS = [  # (label, workload, path into the harness result, unit)
    ("W1 tiny op, forward", "W1", ("fwd_us_per_op",), "µs/op"),
    ("W1 tiny op, backward", "W1", ("bwd_us_per_op",), "µs/op"),
    ("W2 thermometer, 5000 epochs", "W2", ("ms_total",), "ms"),
    ("W3 MLP 512x256-256-10, one step", "W3", ("ms_per_step",), "ms"),
    ("W4 1M-element chain + backward", "W4", ("ms_per_rep",), "ms"),
    ("W6 small-matmul loop, 1000 epochs", "W6", ("ms_total",), "ms"),
]
W5_SIZES = (1_000, 10_000, 100_000)


def bench_env() -> dict:
    env = dict(os.environ)
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env[var] = "1"
    # Core-type overrides that some machines set for old OpenBLAS builds slow a current numpy;
    # they are dropped here only, for the benchmark processes.
    env.pop("OPENBLAS_CORETYPE", None)
    env.pop("OPENBLAS_L2_SIZE", None)
    env["PYTHONWARNINGS"] = "ignore"
    # glibc hands freed heap back to the system and faults it in again on the next use; how
    # often depends on what ran earlier in the process, which made W4 swing by 2x between
    # runs (see docs/performance.md). Every backend gets the same fixed allocator settings.
    env.setdefault("GLIBC_TUNABLES", "glibc.malloc.trim_threshold=1073741824:"
                                     "glibc.malloc.mmap_threshold=33554432")
    return env


def harness(python: str, backend: str, workloads: list[str], extra=()) -> dict:
    cmd = [python, str(HERE / "harness.py"), "--backend", backend, *extra, *workloads]
    done = subprocess.run(cmd, capture_output=True, text=True, env=bench_env(), timeout=1800)
    if done.returncode != 0:
        raise RuntimeError(f"{backend} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def dig(result: dict, key: str, path: tuple):
    value = result.get(key, {})
    for part in path:
        value = value.get(part, {}) if isinstance(value, dict) else {}
    return value if isinstance(value, (int, float)) else None


def median_of(rounds: list[dict], key: str, path: tuple):
    values = [v for v in (dig(r, key, path) for r in rounds) if v is not None]
    return statistics.median(values) if values else None


def ratio(a, b) -> str:
    return f"{a / b:.2f}x" if a is not None and b else "—"


def fmt(v) -> str:
    return "—" if v is None else (f"{v:.3f}" if v < 10 else f"{v:.1f}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--torch-python", default=os.environ.get("GRADSTEP_TORCH_PYTHON"),
                    help="an interpreter with real PyTorch, for the engine/torch column")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--json", help="also write the raw results here")
    ap.add_argument("--cpu-time", action="store_true",
                    help="time CPU time, not wall time (for a loaded, shared machine)")
    ap.add_argument("workloads", nargs="*", default=["W1", "W2", "W3", "W4", "W5", "W6"])
    args = ap.parse_args(argv)
    backends = {"engine": sys.executable, "engine-traced": sys.executable,
                "numpy": sys.executable}
    if args.torch_python:
        backends["torch"] = args.torch_python
    main_wl = [w for w in args.workloads if w != "W5"]
    rounds: dict[str, list[dict]] = {b: [] for b in backends}
    clock = ("--cpu-time",) if args.cpu_time else ()
    for _ in range(args.rounds):
        for backend, python in backends.items():
            result = harness(python, backend, main_wl, ("--repeat", str(args.repeat), *clock)) \
                if main_wl else {}
            if "W5" in args.workloads:
                for n in W5_SIZES:
                    one = harness(python, backend, ["W5"], ("--w5-sizes", str(n), *clock))
                    result.setdefault("W5", {})[str(n)] = {
                        "ms": one["W5"][str(n)]["ms"], "peak_rss_mb": one["W5"]["peak_rss_mb"]}
            rounds[backend].append(result)
    rows = [r for r in ROWS if r[1] in args.workloads]
    if "W5" in args.workloads:
        for n in W5_SIZES:
            rows.append((f"W5 chain of {n:,} ops, fwd+bwd", "W5", (str(n), "ms"), "ms"))
            rows.append((f"W5 chain of {n:,} ops, peak RSS", "W5", (str(n), "peak_rss_mb"), "MB"))
    print(f"# gradstep engine benchmarks — {platform.python_implementation()} "
          f"{platform.python_version()}, {platform.machine()}, {os.cpu_count()} cores, "
          f"median of {args.rounds} rounds, {'CPU' if args.cpu_time else 'wall'} time")
    head = ["workload", "unit", "engine", "traced", "torch", "numpy",
            "engine/torch", "engine/numpy", "traced/engine"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for label, key, path, unit in rows:
        m = {b: median_of(rounds[b], key, path) for b in backends}
        e, tr, to, nu = m.get("engine"), m.get("engine-traced"), m.get("torch"), m.get("numpy")
        print(f"| {label} | {unit} | {fmt(e)} | {fmt(tr)} | {fmt(to)} | {fmt(nu)} | "
              f"{ratio(e, to)} | {ratio(e, nu)} | {ratio(tr, e)} |")
    for key in ("W2", "W6"):
        losses = {b: median_of(rounds[b], key, ("final_loss",)) for b in backends}
        if any(v is not None for v in losses.values()):
            print(f"\n{key} final loss: " + ", ".join(f"{b} {v:.6f}" for b, v in losses.items()
                                                     if v is not None))
    if args.json:
        Path(args.json).write_text(json.dumps(rounds, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
