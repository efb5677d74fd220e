"""Large layouts run in a child process, with a time limit.

pygraphviz holds the GIL for the whole of a `dot` layout and Graphviz cannot be interrupted,
so a big graph laid out in the web process would freeze every request that worker is serving
(measured: a 1000-box layout stalled the event loop for 2 s). Graphs up to `inline_max` boxes
take a few milliseconds and stay in-process; larger ones go to one long-lived child, which is
killed and replaced if it runs past `timeout`.

Example:
    >>> d = DotProcess(timeout=30, inline_max=10_000)
    >>> svg, attrs = d("digraph { a -> b }", 2)
    >>> sorted(attrs)
    ['a', 'b']
    >>> d.close()
"""
from __future__ import annotations

import multiprocessing
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool

from gradstep.app.services.deadline import remaining
from gradstep.app.services.layout import run_dot


class LayoutTimeout(RuntimeError):
    """`dot` ran past the layout time limit and was stopped."""


class DotProcess:
    """A callable `(dot_source, boxes) -> run_dot(dot_source)` that isolates big layouts."""

    def __init__(self, timeout: float = 20.0, inline_max: int = 150):
        self.timeout, self.inline_max = timeout, inline_max
        self._executor: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def __call__(self, source: str, boxes: int):
        return self.run(run_dot, (source,), boxes)

    def run(self, fn, args: tuple, boxes: int):
        """`fn(*args)` here for small graphs, in the child for large ones (fn must be a
        module-level function, so the child can import it)."""
        if boxes <= self.inline_max:
            return fn(*args)
        executor = self._get()
        future = executor.submit(fn, *args)
        try:
            # within the caller's deadline too: this wait cannot be interrupted
            return future.result(timeout=min(self.timeout, remaining()))
        except FutureTimeout:
            self._discard(executor)
            raise LayoutTimeout(f"Laying out {boxes} boxes took longer than "
                                f"{self.timeout:g} s.") from None
        except BrokenProcessPool:      # the child died (e.g. out of memory): start afresh
            self._discard(executor)
            raise

    def _get(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._executor is None:
                # spawn, not fork: the web process has threads, and a forked copy of a
                # threaded process may inherit locks held by threads that do not exist there
                self._executor = ProcessPoolExecutor(
                    max_workers=1, mp_context=multiprocessing.get_context("spawn"))
            return self._executor

    def _discard(self, executor: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._executor is executor:
                self._executor = None
        for proc in list(getattr(executor, "_processes", {}).values()):
            proc.kill()
        executor.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)
