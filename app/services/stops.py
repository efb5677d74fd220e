"""Stopping a run from another request: the learner's Stop button.

The page names each run with a random token (`run_id` in POST /api/run) and, to stop it,
sends that token to POST /api/run/{run_id}/stop. While the run executes, this registry holds
the function that kills its sandbox worker (runner.WorkerPool.run's `on_start`); killing the
worker ends the run at once and the pool replaces the worker, so the slot is free for the next
program instead of being held until the wall-clock limit. A stop that arrives before its run
has a worker (still queued) is remembered, and the run is refused when its turn comes.

Example:
    >>> stops = RunStops()
    >>> killed = []
    >>> stops.started("abc", lambda: killed.append("abc"))
    >>> stops.stop("abc"), killed, stops.was_stopped("abc")
    (True, ['abc'], True)
    >>> stops.finished("abc"); stops.was_stopped("abc")
    False
"""
from __future__ import annotations

import collections
import threading
from collections.abc import Callable


class RunStops:
    """Run tokens -> the function that stops each run; thread-safe (runs finish in threads)."""

    REMEMBERED = 256     # stops of runs not started yet, kept so an early Stop is not lost

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: dict[str, Callable[[], None]] = {}
        self._stopped: collections.OrderedDict[str, None] = collections.OrderedDict()

    def started(self, run_id: str, stop: Callable[[], None]) -> None:
        """The run `run_id` now executes; `stop()` ends it. Stopped already: stop it now."""
        with self._lock:
            self._running[run_id] = stop
            early = run_id in self._stopped
        if early:
            stop()

    def stop(self, run_id: str) -> bool:
        """Stop `run_id`; True if it was executing (False: queued, finished or unknown)."""
        with self._lock:
            self._stopped[run_id] = None
            while len(self._stopped) > self.REMEMBERED:
                self._stopped.popitem(last=False)
            stop = self._running.get(run_id)
        if stop is not None:
            stop()
        return stop is not None

    def running(self, run_id: str) -> bool:
        """True while `run_id` executes in a sandbox worker."""
        with self._lock:
            return run_id in self._running

    def was_stopped(self, run_id: str) -> bool:
        with self._lock:
            return run_id in self._stopped

    def finished(self, run_id: str) -> None:
        """Forget `run_id`: its answer has been made (or its run refused)."""
        with self._lock:
            self._running.pop(run_id, None)
            self._stopped.pop(run_id, None)
