"""Record which public names real PyTorch has (a development script, not a test).

usage: python dev/record_upstream_names.py --python PATH_TO_TORCH_PYTHON

Asks the given interpreter, one with real PyTorch installed, for the public names of `torch`,
the submodules gradstep serves (`torch.nn`, `torch.nn.functional` ...), `torch.Tensor`, and the
torch submodules a program might import, and writes them to `engine/upstream_names.py`. The
engine and the sandbox read that file only when a name is missing, to tell a learner "real
PyTorch has this, gradstep does not implement it" instead of a bare "has no attribute", which
reads as if the learner's code were wrong. The test suite never runs this script.
"""
from __future__ import annotations

import argparse
import json
import subprocess
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "engine" / "upstream_names.py"

# run inside the torch interpreter; prints {"module": [names], ...} as JSON
PROBE = r"""
import json, types, importlib
import torch
SERVED = ["torch", "torch.nn", "torch.nn.functional", "torch.nn.init", "torch.nn.utils",
          "torch.optim", "torch.optim.lr_scheduler", "torch.autograd",
          "torch.autograd.functional", "torch.autograd.graph", "torch.linalg", "torch.utils",
          "torch.utils.data", "torch.distributions", "torch.special"]
def own(mod, name, value):
    # torch's namespace also holds the stdlib modules it imported (torch.os, torch.sys)
    if isinstance(value, types.ModuleType):
        return value.__name__.startswith("torch.")
    return True
out = {}
for dotted in SERVED:
    mod = importlib.import_module(dotted)
    out[dotted] = sorted(n for n in dir(mod)
                         if not n.startswith("_") and own(mod, n, getattr(mod, n, None)))
out["Tensor"] = sorted(n for n in dir(torch.Tensor) if not n.startswith("_"))
# the methods torch/_tensor.py writes in Python: a wrong keyword to one names it "Tensor.norm()",
# where the C++ argument parser says "sum()" (engine/tensor_ops.py bind_ops)
out["Tensor:python"] = sorted(n for n, v in vars(torch.Tensor).items()
                              if isinstance(v, types.FunctionType) and not n.startswith("_"))
# torch's own submodules and those of the modules gradstep serves (torch.autograd.forward_ad)
subs = set()
for dotted in ["torch"] + SERVED:
    for n, v in vars(importlib.import_module(dotted)).items():
        if isinstance(v, types.ModuleType) and v.__name__ == f"{dotted}.{n}" and n[0] != "_":
            subs.add(v.__name__)
out["submodules"] = sorted(subs)
# what dir() gives, private names included, in dir()'s order: Python 3.11's "Did you mean"
# for a misspelt attribute is computed over dir(obj) (runner/suggestions.py)
dirs = {dotted: dir(importlib.import_module(dotted)) for dotted in SERVED}
dirs["Tensor"] = dir(torch.ones(1))     # the same for every tensor, parameters too
out = {"names": out, "dirs": dirs, "version": torch.__version__}
print(json.dumps(out))
"""


def _table(lines: list, table: dict, kind: str) -> None:
    """Append a `key: kind(<names>.split()),` row per entry, names wrapped at 96 columns."""
    for key, names in table.items():
        lines.append(f"    {key!r}: {kind}(\"\"\"")
        row = "       "
        for name in names:
            if len(row) + len(name) + 1 > 96:
                lines.append(row)
                row = "       "
            row += " " + name
        lines.append(row)
        lines.append('    """.split()),')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", required=True, help="an interpreter with real PyTorch")
    args = parser.parse_args()
    probed = json.loads(subprocess.run([args.python, "-c", PROBE], check=True,
                                       capture_output=True, text=True).stdout)
    found, dirs, version = probed["names"], probed["dirs"], probed["version"]
    lines = [f'"""Public names of real PyTorch {version}, recorded by',
             "dev/record_upstream_names.py (do not edit by hand).",
             "",
             "Read only when a name is missing from gradstep, to say that PyTorch has it and",
             'gradstep does not implement it (engine/unsupported.py). DIRS is what dir()',
             "gives for those modules and for a tensor, in order: the names Python's",
             '"Did you mean" picks from (runner/suggestions.py)."""',
             "",
             "NAMES = {"]
    _table(lines, found, "frozenset")
    lines += ["}", "", "DIRS = {"]
    _table(lines, dirs, "tuple")
    lines.append("}")
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {OUT.name}: " + ", ".join(f"{k} {len(v)}" for k, v in found.items()))


if __name__ == "__main__":
    main()
