"""Match rates of the engine's p-norms against real PyTorch, per length and layout.

Run with an interpreter that has PyTorch (never a dependency of gradstep):

    python dev/sweep_norm.py [--reps N]

Random vectors and matrices of mixed magnitudes; for each case it prints how many norms
(and gradients of `x.norm().backward()`) agree to the last bit, next to the plain numpy
formula the engine used before (`np.sqrt((a * a).sum())`).
"""
from __future__ import annotations

import argparse
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from gradstep import engine

torch.set_num_threads(1)


def same(a, b) -> bool:
    return np.asarray(a).tobytes() == np.asarray(b).tobytes()


def sample(rng, shape, dtype):
    scale = 10.0 ** rng.integers(-3, 4, shape)
    return (rng.standard_normal(shape) * scale).astype(dtype)


def run(label, shapes, dtype, p, dim, reps, rng, grad=False):
    hit = old = ghit = tot = 0
    bad = []
    for shape in shapes:
        for _ in range(reps):
            x = sample(rng, shape, dtype)
            t = torch.from_numpy(x).requires_grad_(grad)
            want = torch.linalg.vector_norm(t, p, dim)
            e = engine.tensor(x, requires_grad=grad)
            got = engine.linalg.vector_norm(e, p, dim)
            ok = same(got.detach().numpy(), want.detach().numpy())
            hit += ok
            if not ok:
                bad.append(shape)
            if p == 2:
                axis = None if dim is None else dim
                old += same(np.sqrt((x * x).sum(axis=axis)), want.detach().numpy())
            if grad:
                want.backward()
                got.backward()
                ghit += same(e.grad.numpy(), t.grad.numpy())
            tot += 1
    extra = f"  grad {ghit}/{tot}" if grad else ""
    before = f"  (before: {old}/{tot})" if p == 2 else ""
    print(f"{label:38s} {hit}/{tot}{before}{extra}  misses {sorted(set(bad))[:6]}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=20)
    reps = ap.parse_args().reps
    rng = np.random.default_rng(2024)
    f32, f64 = np.float32, np.float64
    for dt in (f32, f64):
        name = np.dtype(dt).name
        run(f"p=2 {name} n=1..16", [(n,) for n in range(1, 17)], dt, 2, None, reps, rng, True)
        run(f"p=2 {name} n=17..69", [(n,) for n in range(17, 70)], dt, 2, None, reps, rng, True)
        run(f"p=2 {name} n=100..5000", [(n,) for n in (100, 128, 255, 300, 1000, 5000)],
            dt, 2, None, reps, rng)
        run(f"p=2 {name} (r,c) all", [(3, 5), (4, 7), (7, 9), (2, 33)], dt, 2, None, reps, rng)
        run(f"p=2 {name} (r,c) dim=1", [(3, 5), (4, 7), (7, 9), (2, 33)], dt, 2, 1, reps, rng)
        run(f"p=2 {name} (r,c) dim=0", [(3, 5), (4, 7), (7, 9), (33, 2)], dt, 2, 0, reps, rng)
        run(f"p=2 {name} (a,b,c) dim=(1,2)", [(2, 3, 5), (3, 4, 7)], dt, 2, (1, 2), reps, rng)
        run(f"p=2 {name} (a,b,c) dim=1", [(2, 3, 5), (3, 4, 7)], dt, 2, 1, reps, rng)
        for p in (1, 3, float("inf")):
            run(f"p={p} {name} n=1..40", [(n,) for n in range(1, 41)], dt, p, None, reps, rng)
            run(f"p={p} {name} (r,c) dim=1", [(3, 5), (4, 9)], dt, p, 1, reps, rng)
            run(f"p={p} {name} (r,c) dim=0", [(3, 5), (9, 4)], dt, p, 0, reps, rng)


if __name__ == "__main__":
    main()
