"""Code reaches the layers by their installed names only (gradstep.engine, gradstep.runner,
gradstep.app). One import of `engine` by its bare name, from a checkout where that name also
resolves, would load a second copy of the engine beside the first: tensors of one copy are
not tensors of the other, and the sandbox would not know the second copy's classes."""
from __future__ import annotations

import subprocess
import sys

from ._repo import ROOT

LAYERS = ("engine", "runner", "app", "templates", "static")

PROBE = """
import sys
import gradstep, gradstep.app.main, gradstep.app.cli, gradstep.app.notebook
import gradstep.runner.sandbox, gradstep.runner.zygote, gradstep.runner.recorder
import gradstep.engine, gradstep.engine.nn, gradstep.engine.optim, gradstep.engine.func
from gradstep.engine.__main__ import alias_torch
alias_torch()
import torch
x = torch.ones(2, requires_grad=True)
(x * 3).sum().backward()
assert type(x) is gradstep.engine.Tensor and x.grad.tolist() == [3.0, 3.0]
print(" ".join(sorted(m for m in sys.modules if m.split(".")[0] in {layers})))
"""


def test_no_layer_is_imported_by_its_bare_name():
    # run from the checkout's root, where `import engine` would find the folder
    done = subprocess.run([sys.executable, "-c", PROBE.replace("{layers}", repr(set(LAYERS)))],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == [], f"imported by a bare name: {done.stdout}"


def test_the_checkout_reaches_every_layer_through_gradstep():
    import gradstep
    from gradstep import app, engine, runner
    for layer, module in (("engine", engine), ("runner", runner), ("app", app)):
        assert module.__name__ == f"gradstep.{layer}"
        assert (ROOT / layer / "__init__.py").samefile(module.__file__)
    assert gradstep.__version__ == app.__version__
