"""Admission control: a per-client rate limit and a bounded run queue.

Both are per web worker process (state lives in memory); with N uvicorn workers a client may
get up to N × the rate. A shared store is not worth its weight for a classroom server, and a
reverse proxy can enforce a global rate if needed (docs/api.md).

Example:
    >>> r = RateLimiter(per_minute=1, clock=lambda: 0.0)
    >>> r.check("a"), r.check("a") > 0
    (0.0, True)
"""
from __future__ import annotations

import asyncio
import math
import threading
import time
from contextlib import asynccontextmanager
from collections.abc import Callable

from app.errors import ApiError


class RateLimiter:
    """A token bucket per client: `per_minute` runs in a burst, refilled evenly over a minute."""

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic,
                 max_clients: int = 10_000):
        self.capacity = float(per_minute)
        self.rate = per_minute / 60.0
        self.clock = clock
        self.max_clients = max_clients
        self._buckets: dict[str, tuple[float, float]] = {}   # client -> (tokens, stamp)
        self._lock = threading.Lock()

    def check(self, client: str) -> float:
        """Take a token: 0.0 if allowed, else the seconds until one is available."""
        if self.capacity <= 0:
            return 0.0
        now = self.clock()
        with self._lock:
            tokens, stamp = self._buckets.get(client, (self.capacity, now))
            tokens = min(self.capacity, tokens + (now - stamp) * self.rate)
            if tokens >= 1.0:
                self._buckets[client] = (tokens - 1.0, now)
                self._forget_idle(now)
                return 0.0
            self._buckets[client] = (tokens, now)
            return (1.0 - tokens) / self.rate

    def _forget_idle(self, now: float) -> None:
        # A full bucket carries no information; drop those when the table grows large.
        if len(self._buckets) > self.max_clients:
            full = 60.0
            self._buckets = {c: v for c, v in self._buckets.items() if now - v[1] < full}

    def enforce(self, client: str) -> None:
        """Raise 429 with Retry-After when the client is over its rate."""
        wait = self.check(client)
        if wait > 0:
            seconds = max(1, math.ceil(wait))
            raise ApiError(429, "rate_limited",
                           f"Too many runs from this address: the limit is "
                           f"{int(self.capacity)} per minute. Try again in {seconds} s.",
                           headers={"Retry-After": str(seconds)})


class RunGate:
    """At most `slots` runs at once; up to `max_waiting` more wait up to `timeout` seconds.
    Past either bound the answer is a 503 with Retry-After, so a flood costs memory for at
    most `max_waiting` parked requests."""

    MAX_WAITING = 50   # per web worker; at the default 10 s timeout, far above what 2 slots drain

    def __init__(self, slots: int, timeout: float, max_waiting: int = MAX_WAITING):
        self.slots, self.timeout, self.max_waiting = slots, timeout, max_waiting
        self._sem = asyncio.Semaphore(slots)
        self.waiting = 0

    @asynccontextmanager
    async def slot(self):
        if self._sem.locked() and self.waiting >= self.max_waiting:
            raise ApiError(503, "busy", f"{self.waiting} runs are already waiting for a "
                           "sandbox worker. Try again shortly.", headers={"Retry-After": "2"})
        self.waiting += 1
        try:
            if self._sem.locked():
                await asyncio.wait_for(self._sem.acquire(), timeout=self.timeout)
            else:
                await self._sem.acquire()
        except TimeoutError:
            raise ApiError(503, "busy", f"All {self.slots} sandbox workers stayed busy for "
                           f"{self.timeout:g} s. Try again shortly.",
                           headers={"Retry-After": str(max(1, math.ceil(self.timeout)))}) \
                from None
        finally:
            self.waiting -= 1
        try:
            yield
        finally:
            self._sem.release()


def client_key(host: str | None, forwarded_for: str | None, trust_proxy: bool) -> str:
    """Who is asking: the peer address, or the first X-Forwarded-For hop behind a proxy."""
    if trust_proxy and forwarded_for:
        return forwarded_for.split(",")[0].strip() or (host or "unknown")
    return host or "unknown"
