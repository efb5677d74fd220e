"""Record, on real PyTorch, which graph node a failing backward pass raised at (a development
script, not a test).

usage: python dev/record_failing_node.py --python PATH_TO_TORCH_PYTHON [NAME ...]

Runs every `tests/runner/failing_node/cases/NAME.py` (or just the named ones) under the given
interpreter, which must have real PyTorch, and writes `expected/NAME.json`:

    {"type": "RuntimeError", "node": "SigmoidBackward0", "line": 3, "variable": null}

`node` is the class name of the node PyTorch was running when the error left the backward
pass (null when it raised before running any node, as for a root without `grad_fn`); `line`
is the program line whose op created that node; for an `AccumulateGrad`, `variable` is the
program's name for its leaf instead. How the node is found, without trusting any one signal:

- every node the pass can reach gets a pre-hook just before the pass starts; the node whose
  pre-hook ran last when the error left the pass is the failing one (PyTorch checks a node's
  outputs for NaN after it ran, still inside that node's step);
- a hook the program registers on a tensor runs before its node's pre-hook, so each such hook
  is wrapped to note its tensor's node first: an error before that node's pre-hook is its;
- anomaly mode (switched on without its NaN check, so programs behave as written) names the
  node PyTorch blames in its "Error detected in ..." warning; the script refuses to write a
  case when that name and the hooks' disagree.

The line of the op that made each node is taken by a `TorchFunctionMode` that notes, for every
result with a fresh `grad_fn`, the innermost line of the case's file on the stack. The test
suite never runs this script and never imports torch; review the diff it produces.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1] / "tests" / "runner" / "failing_node"

# Runs inside the PyTorch interpreter: argv = [case path, output path].
PROBE = r'''
import json, sys, warnings
import torch
from torch.overrides import TorchFunctionMode

case, out_path = sys.argv[1], sys.argv[2]
made = {}           # node -> line of the op that created it
hooked = set()
state = {"current": None, "error": None}
blamed = []         # names from anomaly mode's "Error detected in X" warnings


def user_line():
    f = sys._getframe(1)
    while f is not None:
        if f.f_code.co_filename == case:
            return f.f_lineno
        f = f.f_back
    return None


def note(result):
    outs = result if isinstance(result, (tuple, list)) else (result,)
    for t in outs:
        fn = getattr(t, "grad_fn", None) if isinstance(t, torch.Tensor) else None
        if fn is not None and fn not in made:
            made[fn] = user_line()


class NoteCreators(TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        result = func(*args, **(kwargs or {}))
        note(result)
        return result


real_apply = torch.autograd.Function.apply.__func__


def apply(cls, *args, **kwargs):
    result = real_apply(cls, *args, **kwargs)
    note(result)
    return result


torch.autograd.Function.apply = classmethod(apply)


def leaf_node(t):
    """The AccumulateGrad of leaf `t`, among the nodes hooked so far."""
    for fn in hooked:
        if getattr(fn, "variable", None) is t:
            return fn
    return None


def hook_graph(roots):
    stack = [t.grad_fn for t in roots if isinstance(t, torch.Tensor) and t.grad_fn is not None]
    while stack:
        fn = stack.pop()
        if fn in hooked:
            continue
        hooked.add(fn)

        def pre(grad_outputs, fn=fn):
            state["current"] = fn

        fn.register_prehook(pre)
        stack.extend(nxt for nxt, _ in fn.next_functions if nxt is not None)


def roots_of(tensors):
    return (tensors,) if isinstance(tensors, torch.Tensor) else tuple(tensors)


real_backward, real_grad = torch.autograd.backward, torch.autograd.grad


def watched(real):
    """`real` (backward or grad) with the pass's nodes hooked; the first error any pass
    raises is kept with its node, even when the program catches it."""
    def run(tensors, *args, **kwargs):
        hook_graph(roots_of(tensors))
        state["current"] = None
        try:
            return real(tensors, *args, **kwargs)
        except Exception as e:
            if state["error"] is None:
                state["error"] = (e, state["current"])
            raise
    return run


backward, grad = watched(real_backward), watched(real_grad)


torch.autograd.backward, torch.autograd.grad = backward, grad
real_register_hook = torch.Tensor.register_hook


def register_hook(self, hook):
    tensor = self

    def noted(grad):
        state["current"] = tensor.grad_fn or leaf_node(tensor)
        return hook(grad)

    noted.__name__ = getattr(hook, "__name__", "noted")
    return real_register_hook(self, noted)


torch.Tensor.register_hook = register_hook


def on_warning(message, category, filename, lineno, file=None, line=None):
    text = str(message)
    if text.startswith("Error detected in "):
        blamed.append(text[len("Error detected in "):].split(".")[0])


warnings.showwarning = on_warning
warnings.simplefilter("always")
torch.autograd.set_detect_anomaly(True, check_nan=False)
namespace = {"__name__": "__main__", "__file__": case}
error = None
with NoteCreators():
    try:
        exec(compile(open(case).read(), case, "exec"), namespace)
    except Exception as e:
        error = e


record = {"type": None, "node": None, "line": None, "variable": None, "anomaly": None}
if state["error"] is not None or error is not None:
    error, fn = state["error"] or (error, None)
    record["type"] = type(error).__name__
    if fn is not None:
        record["node"] = type(fn).__name__
        if hasattr(fn, "variable"):
            record["variable"] = next((k for k, v in namespace.items()
                                       if v is fn.variable and not k.startswith("_")), None)
        else:
            record["line"] = made.get(fn)
    record["anomaly"] = blamed[0].split("::")[-1] if blamed else None
json.dump(record, open(out_path, "w"))
'''


def record(python: str, case: Path, timeout: float) -> str:
    """Run one case under PyTorch and write its expected JSON; a one-line summary."""
    out = HERE / "expected" / (case.stem + ".json")
    tmp = out.with_suffix(".tmp")
    proc = subprocess.run([python, "-c", PROBE, str(case), str(tmp)], capture_output=True,
                          text=True, timeout=timeout)
    if proc.returncode != 0 or not tmp.exists():
        return f"{case.stem}: the probe failed\n{proc.stderr[-2000:]}"
    got = json.loads(tmp.read_text())
    tmp.unlink()
    anomaly = got.pop("anomaly")
    if got["type"] is None:
        return f"{case.stem}: the program did not fail; not written"
    if got["node"] != anomaly:
        return (f"{case.stem}: hooks say {got['node']}, anomaly mode says {anomaly}; "
                "not written")
    out.write_text(json.dumps(got, sort_keys=True) + "\n")
    where = f"line {got['line']}" if got["variable"] is None else got["variable"]
    return f"{case.stem}: {got['type']} at {got['node']} ({where})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", required=True, help="an interpreter with real PyTorch")
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("names", nargs="*")
    args = parser.parse_args(argv)
    cases = sorted((HERE / "cases").glob("*.py"))
    if args.names:
        cases = [c for c in cases if c.stem in set(args.names)]
    for case in cases:
        print(record(args.python, case, args.timeout))
    return 0


if __name__ == "__main__":
    sys.exit(main())
