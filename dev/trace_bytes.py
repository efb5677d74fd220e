"""Dump the trace bytes of many programs, to check that a recorder change keeps them identical.

usage: python dev/trace_bytes.py OUT_DIR [--compare OLD_DIR] [--quick]

Each program runs traced twice: through a `WorkerPool` (the server's path, with the pool's
`Limits` and tighter event and byte caps) and in-process (`Recorder` directly, with other
trace limits: short detail windows, small repr budgets, the byte cap's last resort). Each
trace's bytes go to OUT_DIR/<program>@<limit set>.json; in-process the script also checks
that `Recorder.dump` gives `runner.trace.dump`'s bytes. The programs: the golden cases, the app's
examples and lessons, the trace fixtures' programs, the honest sandbox corpus, and a few
built here (long chains, training loops, console-heavy loops). `--compare OLD_DIR` lists every
file that differs or is missing; run this with the code before a change, then after it.
In-process runs share one interpreter, so a program can see what an earlier one left (a
patched module): compare dumps made from the same program list (`--quick` with `--quick`).
A development script, not a test.
"""
from __future__ import annotations

import argparse
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "fixtures" / "traces"))

BUILT = {
    "chain2000": "import torch\nx = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\n"
                 "y = x\nfor i in range(2000):\n    y = y * 1.0001\ny.sum().backward()\n",
    "chain300": "import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)\ny = x\n"
                "for i in range(300):\n    y = (y * 1.01).sin() + x\n"
                "y.sum().backward()\nprint(x.grad)\n",
    "loop_sgd": "import torch\nw = torch.randn(3, requires_grad=True)\n"
                "opt = torch.optim.SGD([w], lr=0.1)\nxs = torch.randn(8, 3)\n"
                "for epoch in range(40):\n    opt.zero_grad()\n"
                "    loss = ((xs @ w - 1.0) ** 2).mean()\n    loss.backward()\n"
                "    opt.step()\n    if epoch % 7 == 0:\n        print(epoch, loss.item())\n",
    "loop_manual": "import torch\nw = torch.tensor([0.5, -0.3], requires_grad=True)\n"
                   "b = torch.zeros(1, requires_grad=True)\nx = torch.tensor([[1.0, 2.0], "
                   "[3.0, 4.0]])\nfor step in range(30):\n    y = (x @ w + b).tanh().sum()\n"
                   "    y.backward()\n    with torch.no_grad():\n        w -= 0.1 * w.grad\n"
                   "        b -= 0.1 * b.grad\n    w.grad.zero_()\n    b.grad = None\n"
                   "    print(f'{step}: {y.item():.4f}')\n",
    "console": "import torch\nt = torch.arange(6.0).reshape(2, 3)\nfor i in range(300):\n"
               "    print(i, t * i)\n",
    "inplace_views": "import torch\na = torch.ones(4, requires_grad=True)\nb = a * 2\n"
                     "v = b[1:3]\nv.mul_(3)\nc = b.clone()\nc[0] = 5\n"
                     "(b.sum() + c.sum()).backward()\nprint(a.grad)\n"
                     "z = torch.zeros(3, dtype=torch.float16)\n"
                     "print(z + 1, torch.tensor(float('nan')))\n"
                     "e = torch.empty(0, 2, requires_grad=True)\nprint(e.sum())\n",
}

# sandbox Limits overrides (the pool's own caps) and in-process trace limits
POOL_SETS = {"pool": {}, "ev60": {"max_trace_events": 60}, "b20k": {"max_trace_bytes": 20000},
             "b3k": {"max_trace_bytes": 3000}}
INPROC_SETS = {"in": None, "in-win": {"detail_head": 1, "detail_tail": 1, "repr_budget": 5},
               "in-small": {"data_max_numel": 2, "repr_max_numel": 3, "max_events": 90,
                            "jacobian_max_nodes": 4},
               "in-last": {"max_bytes": 1500}}


def programs(quick: bool) -> dict:
    out = {}
    for p in sorted((ROOT / "tests" / "golden" / "cases").glob("*.py")):
        out["golden-" + p.stem] = p.read_text(encoding="utf-8")
    for p in sorted((ROOT / "app" / "examples").glob("*.py")):
        out["example-" + p.stem] = p.read_text(encoding="utf-8")
    for p in sorted((ROOT / "app" / "lessons").glob("*.toml")):
        out["lesson-" + p.stem] = tomllib.loads(p.read_text(encoding="utf-8"))["program"]
    for p in sorted((ROOT / "tests" / "fixtures" / "traces" / "programs").glob("*.py")):
        out["fixture-" + p.stem] = p.read_text(encoding="utf-8")
    for p in sorted((ROOT / "tests" / "runner" / "honest").glob("*.py")):
        out["honest-" + p.stem] = p.read_text(encoding="utf-8")
    out.update({"built-" + k: v for k, v in BUILT.items()})
    if quick:
        out = {k: v for i, (k, v) in enumerate(out.items()) if i % 5 == 0 or "built" in k}
    return out


def run_pool(progs: dict, out_dir: Path) -> None:
    from gradstep.runner import WorkerPool
    from gradstep.runner.limits import Limits
    with WorkerPool(size=2) as pool:
        for name, src in progs.items():
            for tag, over in POOL_SETS.items():
                res = pool.run(src, filename="main.py", limits=Limits(**over), trace=True)
                data = res.trace_json if res.trace_json is not None else b"NO TRACE"
                (out_dir / f"{name}@{tag}.json").write_bytes(data)


def run_inproc(progs: dict, out_dir: Path) -> None:
    import regen
    from gradstep.runner import trace as T
    from gradstep.runner.recorder import Recorder
    orig_finish = Recorder.finish
    for name, src in progs.items():
        for tag, lim in INPROC_SETS.items():
            made = []

            def finish(self, code, check=False, _made=made):
                trace = orig_finish(self, code, check)
                _made.append(self.dump(trace))
                return trace
            Recorder.finish = finish
            try:
                trace, _, _ = regen.record_program(src, "main.py", lim)
                data = made[0]
                if data != T.dump(trace):
                    print(f"MISMATCH Recorder.dump vs trace.dump: {name}@{tag}")
            except Exception as exc:  # recorded, so a change shows up
                data = f"EXCEPTION {type(exc).__name__}: {exc}".encode()
            finally:
                Recorder.finish = orig_finish
            (out_dir / f"{name}@{tag}.json").write_bytes(data)


# Object addresses a program prints (`<MulBackward0 object at 0x...>`) differ from run to run.
_ADDRESS = re.compile(rb"0x[0-9a-f]{6,}")


def compare(new: Path, old: Path) -> int:
    """Report traces that differ; runs stopped by the sandbox's CPU or wall-clock limit
    depend on the machine's load and are listed apart."""
    names = sorted({p.name for p in new.glob("*.json")} | {p.name for p in old.glob("*.json")})
    bad = timed = 0
    for n in names:
        a, b = new / n, old / n
        if not a.exists() or not b.exists():
            bad += 1
            print("MISSING", n)
            continue
        x, y = a.read_bytes(), b.read_bytes()
        if x == y or _ADDRESS.sub(b"0x", x) == _ADDRESS.sub(b"0x", y):
            continue
        if b"time limit exceeded" in x or b"time limit exceeded" in y:
            timed += 1
            print("DIFFERS (a time limit stopped one of them)", n)
            continue
        bad += 1
        print("DIFFERS", n)
    print(f"{len(names)} traces compared, {bad} differ, {timed} stopped by a time limit differ")
    return 1 if bad else 0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--compare")
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    progs = programs(args.quick)
    run_inproc(progs, out)
    run_pool(progs, out)
    return compare(out, Path(args.compare)) if args.compare else 0


if __name__ == "__main__":
    sys.exit(main())
