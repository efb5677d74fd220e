"""gradstep: see PyTorch autograd work, one step at a time.

From Python or a notebook:

    >>> import gradstep                                     # doctest: +SKIP
    >>> gradstep.show("import torch\\nx = torch.ones(2, requires_grad=True)\\nx.sum().backward()")
    >>> gradstep.compare(old_program, new_program)            # doctest: +SKIP

In a notebook, `%load_ext gradstep` and then a cell that starts with `%%gradstep` (options
`--lang zh`, `--height 700`). The `gradstep` command and `python -m gradstep` run, trace,
render, export and serve programs (`gradstep --help`).

The package holds the three layers as subpackages, `gradstep.engine` (the numpy autograd
engine) <- `gradstep.runner` (the sandbox and the trace) <- `gradstep.app` (the server, the
command line, the notebook player). In the repository they are the top-level folders
`engine/`, `runner/` and `app/` (with `templates/` and `static/` shipped inside `app`); a
wheel maps them under `gradstep/` (pyproject.toml, `[tool.setuptools.package-dir]`), and a
checkout finds them through `__path__` below. Nothing else is put at the top level of
site-packages, so a learner's own `app.py` or `engine/` never meets gradstep's.

`__version__` is the one place the version is written: the package metadata reads it at
build time (`[tool.setuptools.dynamic]`), and `gradstep --version` and the OpenAPI
description show it.
"""
import os as _os

__version__ = "0.1.0"

# A checkout (or an editable install of one) keeps the layers beside this folder rather than
# inside it: look for subpackages there too. A wheel has them inside, so the test is false.
_checkout = _os.path.dirname(_os.path.dirname(_os.path.abspath(__file__)))
if not _os.path.isdir(_os.path.join(__path__[0], "engine")) and all(
        _os.path.isfile(_os.path.join(_checkout, layer, "__init__.py"))
        for layer in ("engine", "runner", "app")) and _os.path.isfile(
        _os.path.join(_checkout, "pyproject.toml")):
    __path__.append(_checkout)
del _checkout

__all__ = ["show", "compare", "Player", "load_ipython_extension", "__version__"]


def __getattr__(name: str):
    # The notebook player imports the server's layout code; the sandbox, which imports
    # gradstep.engine and gradstep.runner, must not pay for it (or hold it) at import.
    if name in ("show", "compare", "Player", "load_ipython_extension"):
        from gradstep.app import notebook
        return getattr(notebook, name)
    raise AttributeError(f"module 'gradstep' has no attribute {name!r}")
