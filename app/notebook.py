"""gradstep in a notebook: `%%gradstep` cells, `gradstep.show(code)`, and
`gradstep.compare(before, after)` for two versions of a program side by side.

Both run the code in the sandbox, as the server does, and show the standalone player
(app/services/standalone.py) in an `<iframe srcdoc>`: the player's modules, styles and the
run's answer travel inside the cell's output, so it plays in JupyterLab, Notebook 7, VS Code
and Colab alike, offline, and is still there when the saved notebook is opened elsewhere.
The cell's printed output also appears as plain text under the cell.

IPython is needed only for the magic (`pip install gradstep[notebook]`); `show` returns an
object with `_repr_html_`, which every notebook front end displays.

Example:
    >>> p = Player("<p>hi</p>", height=300)
    >>> p._repr_html_().startswith('<iframe class="gradstep-player"')
    True
"""
from __future__ import annotations

import argparse
import contextlib
import html
import os
import shlex

DEFAULT_HEIGHT = 640


class Player:
    """A run's standalone player, displayed inline by a notebook."""

    def __init__(self, document: str, height: int = DEFAULT_HEIGHT, stdout: str = ""):
        self.document = document
        self.height = height
        self.stdout = stdout

    def _repr_html_(self) -> str:
        return (f'<iframe class="gradstep-player" srcdoc="{html.escape(self.document)}" '
                f'style="width:100%;height:{int(self.height)}px;border:1px solid #ccd;'
                f'border-radius:6px" title="gradstep player"></iframe>')

    def save(self, path: str) -> None:
        """Write the player as a standalone HTML file."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.document)


class SetupError(RuntimeError):
    """gradstep's install cannot run or draw programs (say what to do, not where it broke)."""


def _player(code: str, before: str | None, lang: str, height: int, title: str) -> Player:
    """Run `code` (and `before`, to stand beside it) and make the standalone player."""
    try:
        from gradstep.app.services.standalone import run_answer, standalone_html
        with _native_stderr_silenced():
            earlier = None if before is None else run_answer(before, filename="cell.py")
            answer = run_answer(code, filename="cell.py")
    except ImportError as exc:
        raise SetupError(f"gradstep cannot lay out graphs in this environment ({exc}). "
                         "Reinstall it with `pip install --force-reinstall gradstep`.") from None
    document = standalone_html(answer, lang=lang, title=title, before=earlier)
    return Player(document, height=height, stdout=answer["result"]["stdout"])


def show(code: str, lang: str = "en", height: int = DEFAULT_HEIGHT,
         title: str = "notebook cell") -> Player:
    """Run `code` in gradstep's sandbox and return its player (displayed when last in a cell)."""
    return _player(code, None, lang, height, title)


def compare(before: str, after: str, lang: str = "en", height: int = DEFAULT_HEIGHT,
            title: str = "two runs") -> Player:
    """Run two versions of a program and return a player of both side by side, step for
    step, with what differs marked (an edited `lr`, an added line, a `clone()` fix). Its
    `stdout` is the later run's printed output."""
    return _player(after, before, lang, height, title)


@contextlib.contextmanager
def _native_stderr_silenced():
    """Graphviz's fontconfig writes warnings about the system's font configuration straight to
    file descriptor 2, which a notebook shows as a red error under the cell; the program's own
    output and errors travel in the run's answer, not there."""
    try:
        saved = os.dup(2)
    except OSError:             # no descriptor 2 at all: nothing to silence
        yield
        return
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


class _Options(argparse.ArgumentParser):
    """The magic's options; a mistake is one ValueError, never argparse's usage on stderr."""

    def error(self, message: str):
        raise SystemExit(2)


def _magic_args(line: str) -> argparse.Namespace:
    parser = _Options(prog="%%gradstep", add_help=False)
    parser.add_argument("--lang", choices=("en", "zh"), default="en")
    parser.add_argument("--height", type=int, default=DEFAULT_HEIGHT)
    try:
        return parser.parse_args(shlex.split(line))
    except SystemExit:
        raise ValueError(f"%%gradstep options are --lang en|zh and --height PIXELS; "
                         f"got {line.strip()!r}") from None


def gradstep_magic(line: str, cell: str):
    """%%gradstep [--lang zh] [--height 700]: run the cell in gradstep and show its player."""
    from IPython.display import display

    try:
        args = _magic_args(line)
        player = show(cell, lang=args.lang, height=args.height)
    except (ValueError, SetupError) as exc:
        print(f"gradstep: {exc}")
        return None
    if player.stdout:
        print(player.stdout, end="" if player.stdout.endswith("\n") else "\n")
    display(player)
    return None


def load_ipython_extension(ipython) -> None:
    """`%load_ext gradstep`."""
    ipython.register_magic_function(gradstep_magic, magic_kind="cell", magic_name="gradstep")
