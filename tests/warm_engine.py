"""`python -m gradstep.engine FILE` for many files, with one start-up: a fresh interpreter
loads the engine once, then forks a child per program, which runs it exactly as the command
would (its own temporary cwd, `torch` aliased to the engine, stdout and stderr as files, the
exit code of an uncaught exception or `sys.exit`). The fork carries no state from one program
to the next, as separate interpreters would not.

    with WarmEngine() as engine:
        stdout, stderr, code = engine.run(path)

Run as a script, it is the warm interpreter: a JSON request per line on stdin (a path), a
JSON answer per line on stdout. Standard library only (plus the engine it loads).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path


def _child(path: str, out: int, err: int) -> None:
    """In the forked child: run the program at `path`; never returns."""
    import runpy
    os.dup2(out, 1)
    os.dup2(err, 2)
    sys.stdout = open(1, "w", encoding="utf-8", errors="backslashreplace", closefd=False)
    sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)
    code = 0
    try:
        sys.argv = [path]
        runpy.run_path(path, run_name="__main__")
    except SystemExit as e:
        if e.code is None:
            code = 0
        elif isinstance(e.code, int):
            code = e.code
        else:
            print(e.code, file=sys.stderr)
            code = 1
    except BaseException:
        # the interpreter's own hook: it adds the "Did you mean" suggestions that the
        # traceback module of Python 3.11 leaves out
        sys.excepthook(*sys.exc_info())
        code = 1
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def serve() -> None:
    from gradstep.engine.__main__ import alias_torch
    alias_torch()
    for line in sys.stdin:
        path = json.loads(line)
        with tempfile.TemporaryDirectory(prefix="fidelity-") as cwd, \
                tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            pid = os.fork()
            if pid == 0:
                os.chdir(cwd)
                _child(path, out.fileno(), err.fileno())
            _, status = os.waitpid(pid, 0)
            code = os.waitstatus_to_exitcode(status)
            texts = []
            for f in (out, err):
                f.seek(0)
                texts.append(f.read().decode("utf-8", "replace"))
        sys.stdout.write(json.dumps([*texts, code]) + "\n")
        sys.stdout.flush()


class WarmEngine:
    """The warm interpreter, from the test process's side."""

    def __init__(self, env: dict | None = None):
        self._proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve())],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      env=env, text=True, encoding="utf-8")

    def run(self, path: Path) -> tuple[str, str, int]:
        """(stdout, stderr, exit code) of `python -m gradstep.engine path`."""
        self._proc.stdin.write(json.dumps(str(Path(path).resolve())) + "\n")
        self._proc.stdin.flush()
        line = self._proc.stdout.readline()
        if not line:
            raise RuntimeError("the warm engine interpreter died")
        out, err, code = json.loads(line)
        return out, err, code

    def close(self) -> None:
        self._proc.stdin.close()
        self._proc.wait(timeout=60)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


if __name__ == "__main__":
    serve()
