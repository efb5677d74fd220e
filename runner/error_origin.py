"""Who raised an error: PyTorch, Python, or gradstep itself (the page heads each differently).

A learner reads "PyTorch says" above an error as a fact about PyTorch, so the heading must be
right: a NameError or a SyntaxError is Python's, a limit or a refusal is gradstep's (PyTorch
would have run that program), and only what the engine raises is PyTorch's.

Example:
    >>> error_origin(SyntaxError("invalid syntax"), "main.py")
    'python'
"""
from __future__ import annotations

import os
import re

from gradstep import engine
from gradstep.engine.unsupported import explained
from gradstep.runner.errors import LimitExceeded, SecurityError

_ENGINE_ROOT = os.path.dirname(engine.__file__) + os.sep
# the engine's generated operators (engine/ops/_codegen.py): "<__add__ of Add>"
_GENERATED = re.compile(r"<\S+ of \w+>$")


def error_origin(exc: BaseException, filename: str) -> str:
    """Who raised `exc`, for the heading the page gives it: "pytorch" (the library, in the
    engine's files), "python" (the language itself, or the program's own `raise`: a
    SyntaxError, a NameError, a TypeError from calling a function wrongly), or "gradstep"
    (the sandbox's own stops; _classify decides those by type)."""
    if isinstance(exc, (SyntaxError, SecurityError, LimitExceeded)):
        return "python" if isinstance(exc, SyntaxError) else "gradstep"
    if isinstance(exc, AttributeError) and (
            str(exc).endswith("gradstep does not implement it") or explained(exc)):
        # torch.linalg.svd: PyTorch has it and would have run; gradstep lacks it
        return "gradstep"
    tb, origin = exc.__traceback__, "python"
    while tb is not None:   # the innermost frame of the program or of the engine decides
        name = tb.tb_frame.f_code.co_filename
        if name == filename:
            origin = "python"
        elif name.startswith(_ENGINE_ROOT) or _GENERATED.match(name):
            origin = "pytorch"
        tb = tb.tb_next
    return origin
