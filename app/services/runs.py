"""Run a learner's program in the sandbox pool and answer with its output, trace and layout.

The pool (runner.WorkerPool) does the running; this module adds what a shared server needs:
the program-size check, the bounded queue (RunGate), and caches by source hash — runs are
deterministic (seeded, canonical traces), so a repeated program costs a dictionary lookup.
Results cut short by a time limit are not cached: a retry on a quieter server may finish.

Example:
    >>> summary({"stdout": "", "stderr": "", "exit_code": 0, "error": None, "duration_ms": 1})
    'ok'
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import anyio

from app.errors import ApiError
from app.services.cache import LruCache, source_key
from app.services.dot_process import LayoutTimeout
from app.services.layout import GraphTooLarge, layout_trace
from app.services.limits import RunGate

log = logging.getLogger("gradstep.app")

RESULT_FIELDS = ("stdout", "stderr", "exit_code", "error", "duration_ms")
UNCACHEABLE_LIMITS = {"wall_time", "cpu_time"}


@dataclass
class RunService:
    """The pool plus the server-side policy around it; one per web worker process."""

    pool: Any                      # runner.WorkerPool, or anything with .run(source) -> RunResult
    gate: RunGate
    max_program_bytes: int
    runs: LruCache
    layouts: LruCache
    layout_max_nodes: int | None = None
    dot_runner: Any = None         # DotProcess: big layouts in a child process

    def check_size(self, code: str) -> None:
        size = len(code.encode("utf-8"))
        if size > self.max_program_bytes:
            raise ApiError(413, "program_too_large", f"The program is {size} bytes; the limit "
                           f"is {self.max_program_bytes} bytes.")

    async def run(self, code: str) -> dict:
        """Run `code`; the answer of POST /api/run as a plain dict."""
        self.check_size(code)
        key = source_key(code)
        cached = self.runs.get(key)
        if cached is not None:
            return cached
        async with self.gate.slot():
            answer = await anyio.to_thread.run_sync(self._run_blocking, code, key)
        return answer

    def _run_blocking(self, code: str, key: str) -> dict:
        result = self.pool.run(code)
        if (result.error or {}).get("limit") == "queue":   # the pool's own queue overflowed
            raise ApiError(503, "busy", "All sandbox workers are busy. Try again shortly.",
                           headers={"Retry-After": "2"})
        layout, note = self.layout(code, result.trace)
        answer = {"result": {f: getattr(result, f) for f in RESULT_FIELDS},
                  "trace": result.trace, "layout": layout, "layout_note": note}
        error = result.error or {}
        if error.get("kind") != "crash" and error.get("limit") not in UNCACHEABLE_LIMITS:
            self.runs.put(key, answer)
        return answer

    def layout(self, code: str, trace: dict | None) -> tuple[dict | None, str | None]:
        """The cached layout of a run's trace, or (None, why not)."""
        if trace is None:
            return None, "The run produced no trace."
        key = source_key(code)
        layout = self.layouts.get(key)
        if layout is None:
            try:
                layout = layout_trace(trace, self.layout_max_nodes, self.dot_runner)
            except (GraphTooLarge, LayoutTimeout) as exc:
                return None, str(exc)
            except Exception:  # a drawing bug must not turn a program's answer into a 500
                log.exception("layout failed")
                return None, "The graph could not be drawn (a server bug, logged)."
            self.layouts.put(key, layout)
        return layout, None


def summary(result: dict) -> str:
    """A one-word outcome for the access log: ok, exception, refused, limit or crash."""
    error = result.get("error")
    return "ok" if not error else str(error.get("kind") or "exception")
