"""gradstep: see PyTorch autograd work, one step at a time.

From Python or a notebook:

    >>> import gradstep                                     # doctest: +SKIP
    >>> gradstep.show("import torch\\nx = torch.ones(2, requires_grad=True)\\nx.sum().backward()")

In a notebook, `%load_ext gradstep` and then a cell that starts with `%%gradstep` (options
`--lang zh`, `--height 700`). The `gradstep` command and `python -m gradstep` run, trace,
render, export and serve programs (`gradstep --help`).
"""
from app import __version__
from app.notebook import Player, load_ipython_extension, show

__all__ = ["show", "Player", "load_ipython_extension", "__version__"]
