"""Bitwise sweep of the small matrix products a Linear layer makes, against real PyTorch.

usage: python dev/sweep_mm.py --python PATH_TO_TORCH_PYTHON [--trials N] [--only CLASS ...]
                              [--batches 1,2,...] [--features 1,2,...] [--show N]

A development script, not a test (NOTE [small matrix products] in engine/ops/_mm_order.py).
For every batch m and feature counts k (in) and n (out) it draws standard normal float32
inputs with the layouts a Linear layer hands to its products and computes them with the engine
in this process and with real PyTorch in a child interpreter (inputs and results pass through
one .npz file each):

    fwd     addmm(b, x, w.t())    F.linear(x, w, b)'s forward, x (m, k), w (n, k)
    gin     g @ w                 its backward: x's gradient, g (m, n) the output's
    gw      (g.t() @ x)           w's gradient (a column-major first operand)
    mv      torch.mv(a, v)        a (m, k)

It prints, per class, the share of bit-identical entries and of shapes with every entry
identical, then (with --show) the worst shapes.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
BATCHES = [1, 2, 3, 4, 5, 6, 7, 8, 16, 32, 64]
FEATURES = list(range(1, 17)) + [32]
CLASSES = ("fwd", "gin", "gw", "mv")


def inputs(cls, m, k, n, rng):
    """The arrays of one product: row-major float32, standard normal."""
    def r(*shape):
        return rng.standard_normal(shape).astype(np.float32)
    if cls == "mv":
        return [r(m, k), r(k)]
    return [r(m, k), r(n, k), r(n), r(m, n)]      # x, w, b, the output's gradient


def compute(T, cls, arrs):
    """The product on module T (torch or the engine), from row-major arrays: the Linear
    classes run F.linear forward and backward and keep the one product asked for."""
    t = [T.tensor(a.tolist(), dtype=T.float32) for a in arrs]
    if cls == "mv":
        out = T.mv(t[0], t[1])
    else:
        x, w, b, g = t
        x.requires_grad_(True)
        w.requires_grad_(True)
        y = T.nn.functional.linear(x, w, b)
        y.backward(g)
        out = {"fwd": y, "gin": x.grad, "gw": w.grad}[cls]
    return np.array(out.tolist(), dtype=np.float32)


def shapes(args):
    for cls in args.only:
        for m in args.batches:
            for k in args.features:
                for n in ([1] if cls == "mv" else args.features):
                    yield cls, m, k, n


def child(pin, pout):
    import torch
    torch.set_num_threads(1)
    data = np.load(pin)
    out = {}
    for key in data.files:
        if key.endswith("_0"):
            base = key[:-2]
            cls = base.split("_")[0]
            arrs = [data[f"{base}_{i}"] for i in range(4) if f"{base}_{i}" in data.files]
            out[base] = compute(torch, cls, arrs)
    np.savez(pout, **out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", required=True)
    ap.add_argument("--trials", type=int, default=2)
    ap.add_argument("--only", nargs="*", default=list(CLASSES))
    ap.add_argument("--batches", type=lambda s: [int(x) for x in s.split(",")], default=BATCHES)
    ap.add_argument("--features", type=lambda s: [int(x) for x in s.split(",")],
                    default=FEATURES)
    ap.add_argument("--show", type=int, default=0)
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child(*args.child)
        return 0
    sys.path.insert(0, str(ROOT))
    from gradstep import engine
    rng = np.random.default_rng(0)
    feed, mine = {}, {}
    for cls, m, k, n in shapes(args):
        for t in range(args.trials):
            base = f"{cls}_{m}_{k}_{n}_{t}"
            arrs = inputs(cls, m, k, n, rng)
            for i, a in enumerate(arrs):
                feed[f"{base}_{i}"] = a
            mine[base] = compute(engine, cls, arrs)
    with tempfile.TemporaryDirectory() as tmp:
        pin, pout = os.path.join(tmp, "in.npz"), os.path.join(tmp, "out.npz")
        np.savez(pin, **feed)
        subprocess.run([args.python, str(Path(__file__).resolve()), "--python", args.python,
                        "--child", pin, pout], check=True)
        ref = dict(np.load(pout))
    per_shape = {}
    for base, got in mine.items():
        cls, m, k, n, _ = base.split("_")
        key = (cls, int(m), int(k), int(n))
        same = int((got.view(np.uint32) == ref[base].view(np.uint32)).sum())
        a, b = per_shape.get(key, (0, 0))
        per_shape[key] = (a + same, b + got.size)
    for cls in args.only:
        rows = {s: v for s, v in per_shape.items() if s[0] == cls}
        same = sum(a for a, _ in rows.values())
        total = sum(b for _, b in rows.values())
        whole = sum(a == b for a, b in rows.values())
        print(f"{cls:4} entries {same / total:7.2%}   shapes {whole}/{len(rows)} all exact")
        worst = sorted((a / b, s) for s, (a, b) in rows.items() if a < b)[:args.show]
        for rate, (_, m, k, n) in worst:
            print(f"     m={m:2} k={k:2} n={n:2}  {rate:6.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
