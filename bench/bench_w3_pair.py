"""W3's step on the engine and in hand-written numpy, interleaved in one process, by phase.

    python bench/bench_w3_pair.py [--steps 400]

Separate processes (bench/run.py) meet different load and cache states, and on a shared
machine W3's engine/numpy ratio then moved by +-15% between rounds. Here one engine step and
one numpy step take turns, each split into the same phases (forward with zero_grad, loss,
backward, optimizer step, float(loss)), so both meet the same conditions; the medians per
phase show where the engine's extra time is. Prints one line: engine/numpy microseconds per
phase and the ratio of the totals. Run it from the tree whose engine is to be measured.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PHASES = ("forward", "loss", "backward", "step", "float", "total")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=400)
    args = ap.parse_args(argv)
    sys.path[:0] = [str(HERE.parent), str(HERE)]
    import warnings
    warnings.simplefilter("ignore")          # float(loss)'s warning, as bench/run.py does
    import numpy as np

    import numpy_ref as ref
    from harness import install_backend, load
    install_backend("engine")
    import torch                             # the engine, under the torch name
    mod, _ = load("W3")
    model, x, y, opt = state = mod.setup()
    mod.step(state)
    (w1, b1, w2, b2), xn, yn = nstate = ref.w3_mlp_setup()
    ref.w3_mlp_step(nstate)
    f32, lr = np.float32, np.float32(0.01)
    mse = torch.nn.functional.mse_loss
    clock = time.process_time
    eng = {k: [] for k in PHASES}
    nump = {k: [] for k in PHASES}
    for _ in range(args.steps):
        t0 = clock()
        opt.zero_grad()
        out = model(x)
        t1 = clock()
        loss = mse(out, y)
        t2 = clock()
        loss.backward()
        t3 = clock()
        opt.step()
        t4 = clock()
        float(loss)
        t5 = clock()
        del out, loss
        for k, v in zip(PHASES, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, t5 - t0)):
            eng[k].append(v)
        t0 = clock()                         # numpy_ref.w3_mlp_step, split the same way
        h = np.tanh(xn @ w1.T + b1)
        out = h @ w2.T + b2
        t1 = clock()
        diff = out - yn
        loss = (diff * diff).mean()
        t2 = clock()
        g_out = f32(2.0) * diff / f32(diff.size)
        g_w2, g_b2 = g_out.T @ h, g_out.sum(0)
        g_h = (g_out @ w2) * (1 - h * h)
        g_w1, g_b1 = g_h.T @ xn, g_h.sum(0)
        t3 = clock()
        for p, g in zip((w1, b1, w2, b2), (g_w1, g_b1, g_w2, g_b2)):
            p -= lr * g
        t4 = clock()
        float(loss)
        t5 = clock()
        del h, out, diff, g_out, g_w2, g_b2, g_h, g_w1, g_b1
        for k, v in zip(PHASES, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, t5 - t0)):
            nump[k].append(v)
    med = {k: (statistics.median(eng[k]) * 1e6, statistics.median(nump[k]) * 1e6)
           for k in PHASES}
    print("µs engine/numpy: " + "  ".join(f"{k} {e:.0f}/{n:.0f}" for k, (e, n) in med.items())
          + f"  ratio {med['total'][0] / med['total'][1]:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
