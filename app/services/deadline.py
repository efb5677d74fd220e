"""A deadline for work the server does for an answer (layout, render, export) in a thread.

The work runs in a worker thread, off the event loop, and a thread cannot be killed; but
Python code can be interrupted between two bytecodes. When the deadline passes, a watchdog
thread (one for the process) raises `Overrun` inside the worker thread
(`PyThreadState_SetAsyncExc`), so a layout stuck in a loop of Python code ends there,
unwinding its `with` blocks and locks as any exception does, and the request answers without
its picture. Graphviz itself is C and cannot be
interrupted this way: graphs too big to lay out in a few milliseconds go to a child process
that is killed at its own time limit (app/services/dot_process.py), which waits at most
`remaining()` seconds.

Shutting down (SIGTERM) ends every deadline at once (`expire_all`), so that a busy server
stops within seconds instead of waiting for its layouts.

Example:
    >>> with deadline(5.0):
    ...     remaining() <= 5.0
    True
    >>> import time
    >>> try:
    ...     with deadline(0.05):
    ...         while True:
    ...             time.sleep(0.001)
    ... except Overrun:
    ...     print("stopped")
    stopped
"""
from __future__ import annotations

import ctypes
import heapq
import itertools
import math
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager


class Overrun(BaseException):
    """Raised inside a thread whose work ran past its deadline (or the server is stopping).

    A BaseException, as KeyboardInterrupt is: the code it interrupts may catch Exception to
    turn a bug into a message, and must not swallow the stop."""


_set_async_exc = ctypes.pythonapi.PyThreadState_SetAsyncExc
_set_async_exc.argtypes = (ctypes.c_ulong, ctypes.py_object)
_set_async_exc.restype = ctypes.c_int


class _Watch:
    """One thread's deadline: raises Overrun in that thread at most once, and only while
    the thread is still inside the `deadline` block."""

    def __init__(self, thread_id: int, ends: float):
        self.thread_id, self.ends = thread_id, ends
        self.lock = threading.Lock()
        self.inside, self.fired = True, False

    def fire(self) -> None:
        with self.lock:
            self.ends = min(self.ends, time.monotonic())
            if self.inside and not self.fired:
                self.fired = True
                _set_async_exc(self.thread_id, Overrun)

    def leave(self) -> None:
        with self.lock:
            self.inside = False
            if self.fired:
                # not yet raised (the thread left before its next bytecode): withdraw it, so
                # that it cannot surface later in code that does not expect it
                _set_async_exc(self.thread_id, ctypes.py_object())


class _Watchdog:
    """One daemon thread that fires each watch at its end: a thread per deadline would cost a
    thread start per answer (a millisecond or more on a busy machine)."""

    def __init__(self):
        self.cond = threading.Condition()
        self.heap: list[tuple[float, int, _Watch]] = []
        self.count = itertools.count()
        self.thread: threading.Thread | None = None

    def add(self, watch: _Watch) -> None:
        with self.cond:
            heapq.heappush(self.heap, (watch.ends, next(self.count), watch))
            if self.thread is None:
                self.thread = threading.Thread(target=self._run, name="gradstep deadlines",
                                               daemon=True)
                self.thread.start()
            self.cond.notify()

    def _run(self) -> None:
        with self.cond:
            while True:
                now = time.monotonic()
                while self.heap and self.heap[0][0] <= now:
                    # a watch whose block has ended does nothing when fired
                    heapq.heappop(self.heap)[2].fire()
                self.cond.wait(self.heap[0][0] - now if self.heap else None)


_watchdog = _Watchdog()
_local = threading.local()
_active: set[_Watch] = set()
_active_lock = threading.Lock()


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Raise Overrun in this thread if the block is still running after `seconds`.

    Nested deadlines keep the earlier end. Catch Overrun outside the block.
    """
    ends = time.monotonic() + seconds
    outer = getattr(_local, "watch", None)
    if outer is not None and outer.ends <= ends:
        yield
        return
    watch = _Watch(threading.get_ident(), ends)
    _local.watch = watch
    with _active_lock:
        _active.add(watch)
    _watchdog.add(watch)
    try:
        yield
    finally:
        watch.leave()
        _local.watch = outer
        with _active_lock:
            _active.discard(watch)


def remaining() -> float:
    """Seconds left before this thread's deadline (infinity outside any)."""
    watch = getattr(_local, "watch", None)
    return math.inf if watch is None else max(0.0, watch.ends - time.monotonic())


def running() -> int:
    """How many deadlines are running (threads inside a `deadline` block)."""
    with _active_lock:
        return len(_active)


def expire_all() -> int:
    """End every running deadline now (the server is shutting down); how many there were."""
    with _active_lock:
        watches = list(_active)
    for watch in watches:
        watch.fire()
    return len(watches)
