"""The floor under a tiny op: what the least autograd op written in Python costs.

    python bench/bench_floor.py [--ops 2000] [--repeat 31] [--torch-python PATH]

The target for a tiny op is 0.8x PyTorch or less. This measures, in one process and taking
turns, a chain of `y = y * c` on 3-element float32 tensors four ways:

- `numpy ufunc`: `np.multiply` alone, no autograd at all;
- `python floor`: the least an autograd op can do in Python: the ufunc, one result object and
  one graph node holding its two edges and two saved inputs (slots classes, no checks, no
  grad mode, no dtype promotion, no version counters, no ids, no listener);
- `engine`: gradstep's own `y * c`, which does all of that;
- `torch` (with `--torch-python`, a development interpreter with PyTorch): the same chain run
  by that interpreter, reported beside the others.

CPU time, median per op over `--repeat` runs. Not a test: compare ratios from one run.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


class _Node:
    __slots__ = ("next_functions", "saved")


class _Floor:
    """A tensor reduced to what a recorded multiplication cannot do without."""
    __slots__ = ("data", "grad_fn")

    def __mul__(self, other):
        out = _Floor.__new__(_Floor)
        out.data = np.multiply(self.data, other.data)
        node = _Node.__new__(_Node)
        node.next_functions = ((self.grad_fn, 0), (other.grad_fn, 0))
        node.saved = (self, other)
        out.grad_fn = node
        return out


def _floor_pair():
    x, c = _Floor(), _Floor()
    x.data, x.grad_fn = np.array([0.1, 0.2, 0.3], dtype=np.float32), None
    c.data, c.grad_fn = np.array([0.5, 0.5, 0.5], dtype=np.float32), None
    return x, c


def _torch_pair(torch):
    return (torch.tensor([0.1, 0.2, 0.3], requires_grad=True),
            torch.tensor([0.5, 0.5, 0.5]))


def chain(x, c, n: int):
    y = x
    for _ in range(n):
        y = y * c
    return y


def ufunc_chain(x, c, n: int):
    y = x
    for _ in range(n):
        y = np.multiply(y, c)
    return y


def time_per_op(fn, args, n: int) -> float:
    start = time.process_time()
    fn(*args, n)
    return (time.process_time() - start) / n


def measure(cases: dict, n: int, repeat: int) -> dict:
    for fn, args in cases.values():  # warm up
        fn(*args, n)
    samples = {name: [] for name in cases}
    for _ in range(repeat):
        for name, (fn, args) in cases.items():
            samples[name].append(time_per_op(fn, args, n))
    return {name: statistics.median(s) for name, s in samples.items()}


def torch_only(n: int, repeat: int) -> None:
    """Run under the PyTorch interpreter: print {"torch": seconds per op} as JSON."""
    import torch
    torch.set_num_threads(1)
    print(json.dumps(measure({"torch": (chain, _torch_pair(torch))}, n, repeat)))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ops", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=31)
    ap.add_argument("--torch-python", help="an interpreter with PyTorch (development only)")
    ap.add_argument("--torch-only", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.torch_only:
        return torch_only(args.ops, args.repeat)
    sys.path.insert(0, str(ROOT))
    import gradstep.engine as torch
    a, b = np.array([0.1, 0.2, 0.3], dtype=np.float32), np.array([0.5] * 3, dtype=np.float32)
    cases = {"numpy ufunc": (ufunc_chain, (a, b)), "python floor": (chain, _floor_pair()),
             "engine": (chain, _torch_pair(torch))}
    result = {}
    # PyTorch runs in its own process; alternate it with ours so both see the same load
    for _ in range(3 if args.torch_python else 1):
        part = measure(cases, args.ops, args.repeat)
        for k, v in part.items():
            result.setdefault(k, []).append(v)
        if args.torch_python:
            out = subprocess.run([args.torch_python, __file__, "--torch-only", "--ops",
                                  str(args.ops), "--repeat", str(args.repeat)],
                                 check=True, capture_output=True, text=True).stdout
            result.setdefault("torch", []).append(json.loads(out)["torch"])
    medians = {k: statistics.median(v) for k, v in result.items()}
    ref = medians.get("torch")
    print(f"y = y * c on 3-element float32 tensors, {args.ops} ops (CPU µs per op, medians)")
    for name, sec in medians.items():
        ratio = f"  {sec / ref:.2f}x torch" if ref else ""
        print(f"  {name:<13} {sec * 1e6:6.3f}{ratio}")


if __name__ == "__main__":
    main()
