"""The worker's answer is untrusted: check every field before the pool hands it on.

A program that escaped the language layers runs as the worker's child and can write any
bytes on its result pipe. The zygote builds the answer from what it observed (the output
pipe, the exit status) and what the child sent; this module checks that answer, in the
server's process, against what a run can say: the fields and their types, the error's shape,
sizes within the limits, and the trace against its schema (runner.trace.validate) and the
program that was sent. An answer that fails is replaced by one clear error, "the run's
answer was invalid", for that request alone.

Example:
    >>> check({"stdout": "1\\n", "stderr": "", "exit_code": 0, "error": None,
    ...        "duration_ms": 1.0}, None, "print(1)", Limits())
"""
from __future__ import annotations

import re

from gradstep.runner.limits import Limits

KINDS = frozenset({"exception", "refused", "limit", "crash"})
LIMIT_KEYS = frozenset({"cpu_time", "wall_time", "memory", "tensor_elements", "graph_nodes",
                        "stdout", "source", "recursion_depth", "queue"})
_TYPE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,99}\Z")
_ERROR_KEYS = frozenset({"type", "message", "line", "kind", "limit", "origin"})
_ORIGINS = frozenset({"pytorch", "python", "gradstep"})  # runner/error_origin.py
MESSAGE_CAP = 64 * 1024         # the child cuts longer messages (runner.child)


class InvalidAnswer(ValueError):
    """What the worker sent is not an answer a run can give."""


def _fail(why: str):
    raise InvalidAnswer(why)


def check(answer, trace: dict | None, source: str, limits: Limits) -> None:
    """Raise InvalidAnswer unless `answer` (and its decoded `trace`) is a run's answer."""
    if not isinstance(answer, dict):
        _fail("not an object")
    for name in ("stdout", "stderr"):
        if not isinstance(answer.get(name), str):
            _fail(f"{name} is not text")
    # output is cut at the limit in bytes; the zygote decodes it with replacement characters
    if len(answer["stdout"]) > limits.stdout_bytes:
        _fail("more output than the limit")
    if len(answer["stderr"]) > limits.stdout_bytes + 2 * MESSAGE_CAP:
        _fail("more error output than the limit")
    exit_code, error = answer.get("exit_code"), answer.get("error")
    if type(exit_code) is not int or exit_code not in (0, 1):
        _fail("the exit code is not 0 or 1")
    if (error is None) != (exit_code == 0):
        _fail("the exit code and the error disagree")
    if error is not None:
        _check_error(error)
    if not isinstance(answer.get("duration_ms", 0.0), (int, float)):
        _fail("the duration is not a number")
    if trace is not None:
        _check_trace(trace, source)


def _check_error(error) -> None:
    if not isinstance(error, dict) or not set(error) <= _ERROR_KEYS:
        _fail("the error is not an error")
    if not (isinstance(error.get("type"), str) and _TYPE_NAME.match(error["type"])):
        _fail("the error's type is not a name")
    if not isinstance(error.get("message"), str) or len(error["message"]) > MESSAGE_CAP:
        _fail("the error's message is not text within the limit")
    line = error.get("line")
    if line is not None and (type(line) is not int or line < 0):
        _fail("the error's line is not a line number")
    if error.get("kind") not in KINDS:
        _fail("the error's kind is unknown")
    if "limit" in error and error["limit"] not in LIMIT_KEYS:
        _fail("the error names an unknown limit")
    if "origin" in error and error["origin"] not in _ORIGINS:
        _fail("the error's origin is unknown")


def _check_trace(trace, source: str) -> None:
    from gradstep.runner import trace as trace_format
    from gradstep.runner.trace_check import is_valid
    if not is_valid(trace):     # the slow validator says why (and has the last word)
        try:
            trace_format.validate(trace)
        except trace_format.TraceError as e:
            _fail(f"the trace does not follow its schema: {str(e)[:200]}")
    if trace["program"]["source"] != source:
        _fail("the trace is of another program")
