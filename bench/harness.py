"""Run the engine workloads (bench/workloads/) on one backend and print JSON medians.

    python bench/harness.py --backend engine|engine-traced|torch|numpy [--repeat 7] [W1 ...]

The workload files say `import torch`; for the engine backends this script first puts the
engine in `sys.modules` under the torch names, so the same file runs on both. With
`--backend torch` it must be started by an interpreter that has real PyTorch (a development
venv); it then imports nothing of gradstep. `engine-traced` installs the runner's trace
recorder as the engine's listener, as a traced sandbox run does, and builds the trace at the
end of each repetition. bench/run.py starts one of these per backend and compares them.
"""
from __future__ import annotations

import argparse
import functools
import gc
import importlib.util
import json
import resource
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
WORKLOADS = {"W1": "w1_tiny_ops", "W2": "w2_thermometer", "W3": "w3_mlp",
             "W4": "w4_big_chain", "W5": "w5_graph_size", "W6": "w6_small_matmul"}
W5_SIZES = (1_000, 10_000, 100_000)
# Wall time by default; `--cpu-time` reads this process's CPU time instead, which on a shared,
# oversubscribed machine leaves out the time spent waiting for a core (one thread each, so
# the two agree on an idle machine).
clock = time.perf_counter


def install_backend(backend: str):
    """Make `import torch` mean the chosen backend; returns a context factory for tracing."""
    if backend == "torch":
        import torch
        torch.set_num_threads(1)             # the targets were measured on one BLAS thread
        return None
    sys.path.insert(0, str(HERE.parent))
    from gradstep.engine.__main__ import alias_torch
    alias_torch()                            # the same aliasing as `python -m gradstep.engine FILE`
    return _Tracing if backend == "engine-traced" else None


class _Tracing:
    """Listen with the runner's Recorder for one repetition, then build the trace."""

    def __init__(self, path: Path):
        self.path = path

    def __enter__(self):
        from gradstep.engine import _events
        from gradstep.runner.recorder import Recorder
        self._events = _events
        self.rec = Recorder(self.path.read_text(encoding="utf-8"), str(self.path))
        self._old = _events.set_listener(self.rec)
        return self

    def __exit__(self, *exc):
        self._events.set_listener(self._old)
        self.rec.dump(self.rec.finish(0))    # what a traced run costs includes the bytes


class _NoTracing:
    def __init__(self, path):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None


def load(key: str):
    path = HERE / "workloads" / f"{WORKLOADS[key]}.py"
    spec = importlib.util.spec_from_file_location(WORKLOADS[key], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, path


def timed(fn, *args) -> float:
    start = clock()
    fn(*args)
    return clock() - start


def median_ms(samples) -> float:
    return round(statistics.median(samples) * 1e3, 4)


def bench_w1(tracing, repeat):
    mod, path = load("W1")
    fwd, bwd = [], []
    for _ in range(repeat):
        state = mod.setup()
        with tracing(path):
            start = clock()
            loss = mod.forward(state)
            mid = clock()
            loss.backward()
            end = clock()
        fwd.append(mid - start)
        bwd.append(end - mid)
    n = mod.ops_counted()
    return {"fwd_us_per_op": round(statistics.median(fwd) / n * 1e6, 3),
            "bwd_us_per_op": round(statistics.median(bwd) / n * 1e6, 3)}


def bench_loop(key, tracing, repeat):
    """A workload whose `run` is a whole training loop (W2, W6): its total time and loss."""
    mod, path = load(key)
    samples, loss = [], None
    for _ in range(max(3, repeat // 2)):
        state = mod.setup()
        with tracing(path):
            start = clock()
            loss = mod.run(state)
            samples.append(clock() - start)
    return {"ms_total": median_ms(samples), "final_loss": loss}


def bench_w3(tracing, repeat, steps=50):
    mod, path = load("W3")
    state = mod.setup()
    mod.step(state)                        # warm up: first-touch allocations
    samples = []
    with tracing(path):
        for _ in range(steps):
            samples.append(timed(mod.step, state))
    return {"ms_per_step": median_ms(samples)}


def bench_w4(tracing, repeat):
    mod, path = load("W4")
    state = mod.setup()
    mod.run(state)
    samples = []
    for _ in range(repeat):
        with tracing(path):
            samples.append(timed(mod.run, state))
    return {"ms_per_rep": median_ms(samples)}


def bench_w5(tracing, repeat, sizes=W5_SIZES):
    mod, path = load("W5")
    out = {}
    for n in sizes:
        samples = []
        for _ in range(3):
            state = mod.setup()
            gc.collect()
            with tracing(path):
                samples.append(timed(mod.run, state, n))
        out[str(n)] = {"ms": median_ms(samples)}
    out["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    return out


def bench_numpy(key, repeat, sizes=W5_SIZES):
    sys.path.insert(0, str(HERE))
    import numpy as np
    import numpy_ref as ref
    if key == "W1":
        fwd_fn, bwd_fn = ref.w1_tiny_ops()
        fwd, bwd = [], []
        for _ in range(repeat):
            fwd.append(timed(fwd_fn))
            bwd.append(timed(bwd_fn))
        return {"fwd_us_per_op": round(statistics.median(fwd) / 2000 * 1e6, 3),
                "bwd_us_per_op": round(statistics.median(bwd) / 2000 * 1e6, 3)}
    if key in ("W2", "W6"):
        loop = {"W2": ref.w2_thermometer, "W6": ref.w6_small_matmul}[key]
        samples = [timed(loop) for _ in range(max(3, repeat // 2))]
        return {"ms_total": median_ms(samples), "final_loss": loop()}
    if key == "W3":
        state = ref.w3_mlp_setup()
        ref.w3_mlp_step(state)
        return {"ms_per_step": median_ms([timed(ref.w3_mlp_step, state) for _ in range(50)])}
    if key == "W4":
        x = np.random.default_rng(0).random(1_000_000, dtype=np.float32)
        ref.w4_big_chain(x)
        return {"ms_per_rep": median_ms([timed(ref.w4_big_chain, x) for _ in range(repeat)])}
    out = {str(n): {"ms": median_ms([timed(ref.w5_graph_size, n) for _ in range(3)])}
           for n in sizes}
    out["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    return out


BENCHES = {"W1": bench_w1, "W2": functools.partial(bench_loop, "W2"), "W3": bench_w3,
           "W4": bench_w4, "W5": bench_w5, "W6": functools.partial(bench_loop, "W6")}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", required=True,
                    choices=("engine", "engine-traced", "torch", "numpy"))
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--w5-sizes", default=",".join(map(str, W5_SIZES)),
                    help="comma-separated chain lengths for W5 (run one per process to "
                         "read its peak memory)")
    ap.add_argument("--cpu-time", action="store_true",
                    help="time with this process's CPU time instead of the wall clock")
    ap.add_argument("workloads", nargs="*", default=list(WORKLOADS))
    args = ap.parse_args(argv)
    if args.cpu_time:
        global clock
        clock = time.process_time
    sizes = tuple(int(n) for n in args.w5_sizes.split(","))
    results = {}
    if args.backend == "numpy":
        for key in args.workloads:
            results[key] = bench_numpy(key, args.repeat, sizes)
    else:
        tracing = install_backend(args.backend) or _NoTracing
        for key in args.workloads:
            extra = (sizes,) if key == "W5" else ()
            results[key] = BENCHES[key](tracing, args.repeat, *extra)
    results["python"] = sys.version.split()[0]
    json.dump(results, sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
