"""`gradstep run FILE` and `gradstep trace FILE`: one program through the sandbox.

`run` prints what `python FILE` prints with PyTorch: the program's stdout byte for byte, its
warnings and (on an uncaught exception) a traceback of the user's frames on stderr, and exits
with the program's exit code. `trace` writes the step-by-step trace JSON instead of stdout.

Example:
    $ gradstep run examples/backward.py
    $ gradstep trace examples/backward.py -o trace.json
"""
from __future__ import annotations

import os
import sys

from gradstep.runner.sandbox import RunResult, run_program


def _read(path: str) -> tuple[str | None, int]:
    """(source, 0), or (None, exit code) after saying why, as `python FILE` would."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        sys.stderr.write(f"gradstep: can't open file {path!r}: {e.strerror}\n")
        return None, 2
    try:
        return data.decode("utf-8"), 0  # strict: a coding cookie never re-decodes the text
    except UnicodeDecodeError as e:
        sys.stderr.write(f"SyntaxError: {path}: the program is not valid UTF-8 ({e.reason} "
                         f"at byte {e.start})\n")
        return None, 1


def _write(stream, text: str) -> None:
    stream.flush()
    stream.buffer.write(text.encode("utf-8", "replace"))
    stream.buffer.flush()


def run_file(path: str) -> int:
    """Run the program at `path` in the sandbox; print its output; return its exit code."""
    source, status = _read(path)
    if source is None:
        return status
    # `python FILE` names the file by its absolute path in tracebacks and warnings (since
    # Python 3.9 `__main__.__file__` is absolute), so the same program prints the same stderr
    result: RunResult = run_program(source, filename=os.path.abspath(path), trace=False)
    _write(sys.stdout, result.stdout)
    _write(sys.stderr, result.stderr)
    return result.exit_code


def trace_file(path: str, output: str = "-") -> int:
    """Run the program at `path` and write its trace JSON to `output` ("-" = stdout).

    The program's own stdout is in the trace; its stderr still goes to stderr. Returns the
    program's exit code (the trace is written either way).
    """
    from gradstep.runner import trace as trace_format
    source, status = _read(path)
    if source is None:
        return status
    result = run_program(source, filename=path, trace=True)
    _write(sys.stderr, result.stderr)
    if result.trace is None:
        sys.stderr.write("gradstep: the run produced no trace\n")
        return result.exit_code or 1
    data = trace_format.dump(result.trace)
    if output in ("-", ""):
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    else:
        with open(output, "wb") as f:
            f.write(data)
    return result.exit_code
