"""Admission control: a per-client rate limit (the fair share of sandbox slots is
app/services/fair_gate.py).

It is per web worker process (state lives in memory); with N uvicorn workers a client may
get up to N × the rate. A shared store is not worth its weight for a classroom server, and a
reverse proxy can enforce a global rate if needed (docs/api.md).

Example:
    >>> r = RateLimiter(per_minute=1, clock=lambda: 0.0)
    >>> r.check("a"), r.check("a") > 0
    (0.0, True)
"""
from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable

from gradstep.app.errors import ApiError


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
            allowed = tokens >= 1.0
            self._buckets[client] = (tokens - 1.0 if allowed else tokens, now)
            if len(self._buckets) > self.max_clients:
                self._forget(now)
            return 0.0 if allowed else (1.0 - tokens) / self.rate

    def _forget(self, now: float) -> None:
        # A bucket idle for a minute is full again and carries no information: drop those
        # first. If the table is still too large (many addresses at once, as an IPv6 range
        # allows), drop the least recently seen half: those clients start again with a full
        # bucket, a bounded gift, whereas an unbounded table is memory anyone can fill.
        self._buckets = {c: v for c, v in self._buckets.items() if now - v[1] < 60.0}
        if len(self._buckets) > self.max_clients:
            recent = sorted(self._buckets.items(), key=lambda item: item[1][1])
            self._buckets = dict(recent[len(recent) - self.max_clients // 2:])

    def enforce(self, client: str) -> None:
        """Raise 429 with Retry-After when the client is over its rate."""
        wait = self.check(client)
        if wait > 0:
            seconds = max(1, math.ceil(wait))
            raise ApiError(429, "rate_limited",
                           f"Too many runs from this address: the limit is "
                           f"{int(self.capacity)} per minute. Try again in {seconds} s.",
                           headers={"Retry-After": str(seconds)})


def client_key(host: str | None, forwarded_for: str | None, trust_proxy: bool) -> str:
    """Who is asking: the peer address, or the first X-Forwarded-For hop behind a proxy."""
    if trust_proxy and forwarded_for:
        return forwarded_for.split(",")[0].strip() or (host or "unknown")
    return host or "unknown"
