"""`import matplotlib.pyplot as plt` in the sandbox: the calls a training tutorial makes to plot
its losses, kept as data for the page's plot panel instead of drawn.

matplotlib is not a dependency, and drawing is not the sandbox's job: `plt.plot(losses)`
records the numbers, `xlabel`, `ylabel`, `title` and `legend` the words around them, `show()`
and `figure()` close a figure. Every other pyplot function a program may call warns that
gradstep does not draw it and returns None, so the program goes on to the part it is about.
The figures reach the trace as `series.plotted` (docs/trace-format.md).
"""
from __future__ import annotations

import warnings

import numpy as np

from gradstep.engine import Tensor

SUPPORTED = ("plot", "xlabel", "ylabel", "title", "legend", "show", "figure", "grid", "close")
# pyplot functions a program may call that are not drawn (a warning each, then None)
NOT_DRAWN = """scatter bar barh hist imshow subplot subplots savefig xlim ylim axis xticks yticks
    tight_layout suptitle text annotate fill_between errorbar semilogy semilogx loglog clf cla
    gca gcf pause ion ioff axhline axvline step stem pie boxplot violinplot contour contourf
    colorbar matshow margins xscale yscale rc style use switch_backend draw""".split()
MAX_FIGURES = 8


class _Figures:
    """The run's figures; the recorder reads `figures` when it builds the trace."""

    def __init__(self) -> None:
        self.figures: list[dict] = []
        self.current: dict | None = None

    def figure(self) -> dict:
        if self.current is None:
            self.current = {"title": None, "xlabel": None, "ylabel": None, "lines": []}
            if len(self.figures) < MAX_FIGURES:
                self.figures.append(self.current)
        return self.current


state = _Figures()


def begin() -> _Figures:
    """A fresh set of figures for a new run (the zygote's process serves many)."""
    global state
    state = _Figures()
    return state


def _numbers(values) -> list:
    """A plotted sequence as floats: a tensor, an ndarray, or a list of numbers or 0-d
    tensors (`losses.append(loss)` without `.item()`)."""
    if isinstance(values, Tensor):
        values = values.detach().numpy()
    if isinstance(values, np.ndarray):
        return [float(v) for v in values.reshape(-1)]
    return [float(v.item() if isinstance(v, (Tensor, np.generic)) else v) for v in values]


def plot(*args, label=None, **style):
    """`plt.plot(y)`, `plt.plot(x, y)`, with an optional format string and `label=`."""
    data = [a for a in args if not isinstance(a, str)]
    if not data or len(data) > 2:
        warnings.warn("gradstep draws plt.plot(y) and plt.plot(x, y) only; this call is not "
                      "drawn and the program goes on", UserWarning, stacklevel=2)
        return [None]
    y = _numbers(data[-1])
    x = _numbers(data[0]) if len(data) == 2 else list(range(len(y)))
    if len(x) != len(y):
        raise ValueError(f"x and y must have same first dimension, but have shapes ({len(x)},) "
                         f"and ({len(y)},)")
    line = {"label": None if label is None else str(label),
            "rows": [[a, b] for a, b in zip(x, y)]}
    state.figure()["lines"].append(line)
    return [None]


def _words(key: str):
    def set_words(text, *args, **kwargs):
        state.figure()[key] = str(text)
    set_words.__name__ = key
    return set_words


def legend(*args, **kwargs):
    """Labels come from `plot(..., label=)`; the page shows them."""


def grid(*args, **kwargs):
    """The page's plot has its own axes."""


def show(*args, **kwargs):
    """The figure is done; the page shows it beside the graph."""
    state.current = None


def figure(*args, **kwargs):
    """Start a new figure."""
    state.current = None


def close(*args, **kwargs):
    state.current = None


def _not_drawn_function(name: str):
    def not_drawn(*args, **kwargs):
        warnings.warn(f"gradstep does not draw plt.{name}(); the program goes on without it",
                      UserWarning, stacklevel=2)
    not_drawn.__name__ = name
    return not_drawn


def names() -> dict:
    """What `matplotlib.pyplot` offers in the sandbox."""
    offered = {"plot": plot, "xlabel": _words("xlabel"), "ylabel": _words("ylabel"),
               "title": _words("title"), "legend": legend, "show": show, "figure": figure,
               "grid": grid, "close": close}
    offered.update({name: _not_drawn_function(name) for name in NOT_DRAWN})
    return offered


def matplotlib_names() -> dict:
    """`import matplotlib; matplotlib.use("Agg")`: the backend choice changes nothing here."""
    return {"use": lambda *args, **kwargs: None}
