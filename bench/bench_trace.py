"""Tracing overhead: a chain of tiny ops (plus its backward) untraced vs traced.

    python bench/bench_trace.py [--ops 2000] [--repeat 9] [--server]

Runs the program untraced and traced in turns (so that a noisy neighbour slows both alike) and
prints the medians of CPU time: the untraced run, the traced run (the program with the recorder
listening: the target is at most 1.5x, aiming for 1.3x), and what a traced request
also pays afterwards: `Recorder.finish` (rendering events, the caps) and `Recorder.dump` (the
canonical bytes the sandbox sends). The first line is the program as the sandbox runs it: the
child's limit watch (`runner.child._LimitWatch`) listens in both runs and forwards to the
recorder in the traced one. The second line leaves the watch out: no listener at all against
the recorder alone, the stricter ratio. There a third variant runs the program under
`FloorListener`, the least any recorder of this trace format must do while the program runs
(find the user's line, keep the objects, copy the value's bytes, and nothing else): the gap
between it and the recorder is the bookkeeping (ids, names, state at event time) that the
recorder does as it goes. `--server` also sends the chain as requests through a warm
`WorkerPool`, untraced and traced in turns: the wall time of a request (fork, run, finish,
dump, the pipe, the pool's decode), which is what the app waits for before its layout. Each
run starts after an untimed `gc.collect()`, as a sandboxed run starts in a fresh child. Not a
test: timings depend on the machine; compare ratios from one run, not single numbers.
"""
from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import gradstep.engine as torch
from gradstep.engine import _events
from gradstep.runner.child import _LimitWatch
from gradstep.runner.limits import Limits
from gradstep.runner.recorder import Recorder

SOURCE = """\
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x
for i in range(N):
    y = y * 1.0001
y.sum().backward()
"""


class FloorListener(_events.Listener):
    """A lower bound for recording while the program runs: per op the user's line, the
    objects and the output's bytes; per node application the gradients' bytes."""

    def __init__(self, filename: str) -> None:
        self.filename, self.tape = filename, []

    def on_op(self, op_name, inputs, output, node) -> None:
        f = sys._getframe(2)
        while f.f_code.co_filename != self.filename:
            f = f.f_back
        self.tape.append((f.f_lineno, op_name, inputs, output, node, output._data.tobytes()))

    def on_node_apply(self, node, grads_in, grads_out) -> None:
        self.tape.append((node, [None if g is None else g._data.tobytes() for g in grads_in],
                          [None if g is None else g._data.tobytes() for g in grads_out]))


def run(n: int, traced: bool | str, watched: bool = False) -> tuple:
    """(seconds running the program, finishing the trace, dumping it); `traced` is False,
    True (the recorder) or "floor" (FloorListener); `watched`: under the sandbox's limit
    watch, as runner.child runs a program."""
    code = compile(SOURCE, "chain.py", "exec")
    env = {"torch": torch, "N": n}
    clock = time.process_time  # CPU time: the machine is shared, wall time is noise
    rec = (FloorListener("chain.py") if traced == "floor" else
           Recorder(SOURCE, "chain.py") if traced else None)
    listener = _LimitWatch(Limits(), rec) if watched else rec
    # A sandboxed run is a fresh child that exits after sending its trace: collect what the
    # previous run left, untimed, so that no run pays for another's garbage.
    gc.collect()
    old = _events.set_listener(listener)
    start = clock()
    try:
        exec(code, env)
    finally:
        _events.set_listener(old)
    ran = finished = clock()
    if traced is True:
        trace = rec.finish(0)
        finished = clock()
        rec.dump(trace)
    return ran - start, finished - ran, clock() - finished


def server(n: int, repeat: int) -> None:
    """Median wall ms of the chain as untraced and traced requests to a warm WorkerPool."""
    from gradstep.runner import WorkerPool
    source = f"import torch\nN = {n}\n" + SOURCE
    with WorkerPool(size=1) as pool:
        pool.run(source, trace=True)  # warm up
        plain, traced = [], []
        for _ in range(repeat):
            for trace, times in ((False, plain), (True, traced)):
                start = time.perf_counter()
                result = pool.run(source, trace=trace)
                times.append(time.perf_counter() - start)
                assert result.exit_code == 0 and (result.trace is not None) == trace
    base, full = statistics.median(plain), statistics.median(traced)
    print(f"the same as requests to a WorkerPool (wall ms, median of {repeat}): untraced "
          f"{base * 1e3:.1f}, traced {full * 1e3:.1f} ({full / base:.2f}x)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ops", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=9)
    ap.add_argument("--server", action="store_true")
    args = ap.parse_args()
    run(args.ops, False), run(args.ops, True)  # warm up imports and caches
    plain, traced, floor, w_plain, w_traced = [], [], [], [], []
    for _ in range(args.repeat):
        w_plain.append(run(args.ops, False, watched=True)[0])
        w_traced.append(run(args.ops, True, watched=True))
        plain.append(run(args.ops, False)[0])
        traced.append(run(args.ops, True)[0])
        floor.append(run(args.ops, "floor")[0])
    base = statistics.median(w_plain)
    rec, fin, dump = (statistics.median(t[i] for t in w_traced) for i in range(3))
    total = statistics.median(sum(t) for t in w_traced)
    print(f"{args.ops}-op chain + backward (CPU ms, median of {args.repeat}), as the sandbox "
          f"runs it: untraced {base * 1e3:.1f}, traced run {rec * 1e3:.1f} "
          f"({rec / base:.2f}x), + finish {fin * 1e3:.1f} + dump {dump * 1e3:.1f} "
          f"(total {total * 1e3:.1f}, {total / base:.2f}x)")
    base, rec, low = (statistics.median(t) for t in (plain, traced, floor))
    print(f"without the limit watch: untraced {base * 1e3:.1f}, traced run {rec * 1e3:.1f} "
          f"({rec / base:.2f}x); recorder floor {low * 1e3:.1f} ({low / base:.2f}x)")
    if args.server:
        server(args.ops, args.repeat)


if __name__ == "__main__":
    main()
