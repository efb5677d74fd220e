"""Tracing a training loop: the program untraced against traced, in-process.

    python bench/bench_loops.py [--repeat 3] [--only w2,lesson,mlp50,linreg1000,linreg10000,batches]
    python bench/bench_loops.py --torch-python PATH/TO/python-with-torch   # ... and PyTorch
    python bench/bench_loops.py --parts [--only w2,lesson,linreg1000]      # where it goes
    python bench/bench_loops.py --per-epoch [--repeat 9]                    # per middle epoch

A loop's answer keeps its first and last few iterations in detail and summarises the middle
(docs/trace-format.md, section 9), so a traced loop should cost little more than the loop
itself. This prints, per program, the median CPU time of the program as the sandbox child
runs it (under its limit watch) untraced, the same program traced, their ratio, what
`Recorder.finish` and `Recorder.dump` add once at the end, and the ratio of the whole traced
run (program, finish and dump: the child's time) to the untraced one. Untraced and traced runs
alternate, so a noisy neighbour slows both alike. Given an interpreter with real PyTorch, it
also times the same program there (CPU time of its exec, in a process of its own, after an
untimed first run). Not a test: compare ratios from one run.

The programs: W2 (bench/workloads/w2_thermometer.py, 5000 epochs of a hand-written update),
the `training-loop` lesson (two loops of 2000 epochs with optim.SGD), a small MLP
(`nn.Sequential` 4-8-8-1, MSELoss, SGD, 50 epochs) and a linear regression (`x @ w + b` on a
batch of 32, MSE, SGD) at 1,000 and 10,000 epochs; the same regression in 100 epochs of 8
mini-batches (`batches`, two nested range loops), and again with its epochs over a list
(`batches_full`), which the recorder cannot count ahead and so records in full.

`--per-epoch` says what one iteration of a loop's middle costs: each program runs with fewer
and with more epochs (or mini-batch steps), untraced, with the floor listener and with the
recorder, in a random order, and the least of the runs of each gives the time per added epoch.

`--parts` says where the traced run's extra time goes instead, by running each program
(interleaved) untraced, with a listener that does nothing (what the engine's event calls
cost), with bench_trace.py's FloorListener (what recording every iteration's line, objects
and values costs, the least a recorder that keeps every iteration could do), and with the
recorder (which records a counted loop's middle light: docs/performance.md).
"""
from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import subprocess
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import gradstep.engine as torch  # noqa: E402
from gradstep.engine import _events  # noqa: E402
from gradstep.runner.child import _LimitWatch  # noqa: E402
from gradstep.runner.limits import Limits  # noqa: E402
from gradstep.runner.recorder import Recorder  # noqa: E402

# the programs say `import torch`, as a learner's do: the engine answers, as in the sandbox
sys.modules.update({"torch": torch, "torch.optim": torch.optim, "torch.nn": torch.nn})

W2 = """\
import torch
t_c = torch.tensor([0.5, 14.0, 15.0, 28.0, 11.0, 8.0, 3.0, -4.0, 6.0, 13.0, 21.0])
t_u = torch.tensor([35.7, 55.9, 58.2, 81.9, 56.3, 48.9, 33.9, 21.8, 48.4, 60.4, 68.4]) * 0.1
params = torch.tensor([1.0, 0.0], requires_grad=True)
for epoch in range(5000):
    if params.grad is not None:
        params.grad.zero_()
    t_p = params[0] * t_u + params[1]
    loss = ((t_p - t_c) ** 2).mean()
    loss.backward()
    params = (params - 1e-2 * params.grad).detach().requires_grad_()
print(loss.item())
"""

LINREG = """\
import torch
torch.manual_seed(0)
x = torch.randn(32, 3)
y = x @ torch.tensor([[2.0], [-1.0], [0.5]]) + 0.3
w = torch.zeros(3, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
opt = torch.optim.SGD([w, b], lr=0.1)
for epoch in range(EPOCHS):
    pred = x @ w + b
    loss = ((pred - y) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss.item())
"""

MLP50 = """\
import torch
from torch import nn
torch.manual_seed(0)
x = torch.randn(16, 4)
y = torch.randn(16, 1)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
loss_fn = nn.MSELoss()
for epoch in range(50):
    opt.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    opt.step()
    if epoch % 10 == 0:
        print(epoch, loss.item())
"""

# epochs of mini-batches: 100 epochs of 8 batches of 4 rows, linear regression as above
BATCHES = """\
import torch
torch.manual_seed(0)
x = torch.randn(32, 3)
y = x @ torch.tensor([[2.0], [-1.0], [0.5]]) + 0.3
w = torch.zeros(3, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
opt = torch.optim.SGD([w, b], lr=0.05)
for epoch in EPOCHS:
    for start in range(0, 32, 4):
        pred = x[start:start + 4] @ w + b
        loss = ((pred - y[start:start + 4]) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
print(loss.item())
"""


def lesson(lesson_id: str) -> str:
    for path in sorted((ROOT / "app" / "lessons").glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        if data["id"] == lesson_id:
            return data["program"]
    raise SystemExit(f"no lesson {lesson_id!r}")


def programs() -> dict[str, str]:
    return {"w2": W2, "lesson": lesson("training-loop"), "mlp50": MLP50,
            "linreg1000": LINREG.replace("EPOCHS", "1000"),
            "linreg10000": LINREG.replace("EPOCHS", "10000"),
            "batches": BATCHES.replace("EPOCHS", "range(100)"),
            # the same loop over a list, which the recorder cannot count: recorded in full
            "batches_full": BATCHES.replace("EPOCHS", "list(range(100))")}


LABELS = {"w2": "W2 (5000 epochs)", "lesson": "lesson training-loop (2 x 2000)",
          "mlp50": "MLP 4-8-8-1, 50 epochs",
          "linreg1000": "linear regression, 1,000 epochs",
          "linreg10000": "linear regression, 10,000 epochs",
          "batches": "100 epochs x 8 batches",
          "batches_full": "100 epochs x 8 batches, in full"}


class _Quiet:
    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


def run(source: str, traced: bool) -> tuple:
    """(CPU seconds running the program, finishing the trace, dumping it)."""
    code = compile(source, "main.py", "exec")
    rec = Recorder(source, "main.py") if traced else None
    watch = _LimitWatch(Limits(), rec)
    gc.collect()  # a sandboxed run starts in a fresh child: no garbage from the last one
    clock = time.process_time
    old, out = _events.set_listener(watch), sys.stdout
    sys.stdout = _Quiet()
    start = clock()
    try:
        exec(code, {"torch": torch, "__name__": "__main__"})
    finally:
        _events.set_listener(old)
        sys.stdout = out
    ran = finished = clock()
    if rec is not None:
        trace = rec.finish(0)
        finished = clock()
        rec.dump(trace)
    return ran - start, finished - ran, clock() - finished


TORCH_TIMER = """
import sys, time, io, contextlib
import torch
torch.set_num_threads(1)
source = sys.stdin.read()
code = compile(source, "main.py", "exec")
times = []
for _ in range(REPEAT + 1):
    with contextlib.redirect_stdout(io.StringIO()):
        start = time.process_time()
        exec(code, {"__name__": "__main__"})
        times.append(time.process_time() - start)
print(sorted(times[1:])[len(times[1:]) // 2])
"""


def torch_time(python: str, source: str, repeat: int) -> float:
    """Median CPU seconds of `source` on real PyTorch, one thread, in its own process."""
    env = {**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    done = subprocess.run([python, "-c", TORCH_TIMER.replace("REPEAT", str(repeat))],
                          input=source, capture_output=True, text=True, env=env, timeout=600)
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-2000:])
    return float(done.stdout.strip().splitlines()[-1])


class _NullListener(_events.Listener):
    """Hears every event and does nothing: the cost of the engine's event calls alone."""

    def forwarded(self, watch=None) -> None:
        pass


def _floor():
    from bench_trace import FloorListener   # beside this script

    class Floor(FloorListener):
        def forwarded(self, watch=None) -> None:  # found by stack walk: no depth to adjust
            pass
    return Floor("main.py")


VARIANTS = ["untraced", "null listener", "floor", "recorder"]


def run_variant(source: str, variant: str) -> float:
    """CPU seconds of the program under the limit watch with `variant`'s listener."""
    listener = (None if variant == "untraced" else _NullListener()
                if variant == "null listener" else _floor() if variant == "floor"
                else Recorder(source, "main.py"))
    code = compile(source, "main.py", "exec")
    watch = _LimitWatch(Limits(), listener)
    gc.collect()
    old, out = _events.set_listener(watch), sys.stdout
    sys.stdout = _Quiet()
    start = time.process_time()
    try:
        exec(code, {"torch": torch, "__name__": "__main__"})
    finally:
        _events.set_listener(old)
        sys.stdout = out
    return time.process_time() - start


def parts(progs: dict, keys: list[str], repeat: int) -> None:
    print(f"CPU ms, median of {repeat}, load {os.getloadavg()[0]:.1f}")
    for key in keys:
        times: dict[str, list[float]] = {v: [] for v in VARIANTS}
        for _ in range(repeat):
            for v in VARIANTS:
                times[v].append(run_variant(progs[key], v))
        med = {v: statistics.median(t) for v, t in times.items()}
        base = med["untraced"]
        print(LABELS[key])
        for v in VARIANTS:
            print(f"  {v:18} {med[v] * 1e3:8.1f} {med[v] / base:5.2f}x", flush=True)


# (fewer epochs, more epochs) of each program for --per-epoch: the same program text, its
# loops' counts changed; the middle iterations are what the extra epochs add
PER_EPOCH = {"w2": ("range(5000)", "range({})", 200, 1400),
             "lesson": ("train(2000", "train({}", 100, 700),
             "mlp50": ("range(50)", "range({})", 50, 450),
             "linreg1000": ("range(1000)", "range({})", 200, 1400)}


def per_epoch(progs: dict, keys: list[str], repeat: int) -> None:
    print(f"CPU µs per epoch added, least of {repeat}, load {os.getloadavg()[0]:.1f}")
    variants = ["untraced", "floor", "recorder"]
    for key in keys:
        old, new, few, many = PER_EPOCH[key]
        source = progs[key]
        runs = {"few": source.replace(old, new.format(few)),
                "many": source.replace(old, new.format(many))}
        added = (many - few) * source.count(old)
        times: dict[tuple, list[float]] = {}
        jobs = [(n, v) for n in runs for v in variants]
        for _ in range(repeat):
            random.shuffle(jobs)
            for n, v in jobs:
                times.setdefault((n, v), []).append(run_variant(runs[n], v))
        per = {v: (min(times["many", v]) - min(times["few", v])) / added for v in variants}
        line = f"{LABELS[key]:36} untraced {per['untraced'] * 1e6:6.1f}"
        for v in variants[1:]:
            extra = per[v] - per["untraced"]
            line += f"   {v} +{extra * 1e6:5.1f} ({extra / per['untraced'] * 100:4.1f}%)"
        print(line, flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", default="w2,lesson,mlp50,linreg1000,linreg10000")
    ap.add_argument("--torch-python", default=os.environ.get("GRADSTEP_TORCH_PYTHON"),
                    help="an interpreter with real PyTorch, for a PyTorch column")
    ap.add_argument("--parts", action="store_true",
                    help="where the traced run's extra time goes (against the floor)")
    ap.add_argument("--per-epoch", action="store_true",
                    help="what an iteration of a loop's middle costs (against the floor)")
    args = ap.parse_args()
    progs = programs()
    if args.parts:
        parts(progs, args.only.split(","), args.repeat)
        return
    if args.per_epoch:
        keys = [k for k in args.only.split(",") if k in PER_EPOCH]
        per_epoch(progs, keys, args.repeat)
        return
    print(f"{'program':36} {'untraced':>9} {'traced':>9} {'ratio':>6} {'finish':>7} "
          f"{'dump':>6} {'whole':>6} {'PyTorch':>8}  (CPU ms, median of {args.repeat}; "
          f"load {os.getloadavg()[0]:.1f})")
    for key in args.only.split(","):
        source = progs[key]
        plain, traced = [], []
        for _ in range(args.repeat):
            plain.append(run(source, False)[0])
            traced.append(run(source, True))
        base = statistics.median(plain)
        rec, fin, dump = (statistics.median(t[i] for t in traced) for i in range(3))
        whole = statistics.median(sum(t) for t in traced)   # what the child spends
        real = (f"{torch_time(args.torch_python, source, args.repeat) * 1e3:8.1f}"
                if args.torch_python else f"{'-':>8}")
        print(f"{LABELS[key]:36} {base * 1e3:9.1f} {rec * 1e3:9.1f} {rec / base:5.2f}x "
              f"{fin * 1e3:7.1f} {dump * 1e3:6.1f} {whole / base:5.2f}x {real}", flush=True)


if __name__ == "__main__":
    main()
