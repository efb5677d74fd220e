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

import functools
import ipaddress
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


# A client key longer than this is cut: the limiter keeps one per client, and a forwarded hop
# is text the client may have written.
MAX_KEY_CHARS = 64
DEFAULT_TRUSTED_PROXIES = "127.0.0.1, ::1"


class TrustedProxies:
    """The proxies whose `X-Forwarded-For` hops are believed: addresses, networks (CIDR) or
    other literal peer names, comma-separated; `*` trusts every peer (uvicorn's
    `forwarded_allow_ips`).

    Example:
        >>> t = TrustedProxies("10.0.0.0/8, ::1")
        >>> t.trusts("10.2.3.4"), t.trusts("::1"), t.trusts("203.0.113.5"), t.trusts("x")
        (True, True, False, False)
    """

    def __init__(self, spec: str):
        self.everyone = False
        self.networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        self.literals: set[str] = set()
        for item in (part.strip() for part in spec.split(",")):
            if item == "*":
                self.everyone = True
            elif item:
                try:
                    self.networks.append(ipaddress.ip_network(item, strict=False))
                except ValueError:
                    self.literals.add(item)

    def trusts(self, host: str) -> bool:
        if self.everyone or host in self.literals:
            return True
        try:
            address = ipaddress.ip_address(host.strip("[]"))
        except ValueError:
            return False
        return any(address in net for net in self.networks)


@functools.lru_cache(maxsize=8)
def trusted_proxies(spec: str) -> TrustedProxies:
    return TrustedProxies(spec)


def client_key(host: str | None, forwarded_for: str | None, trust_proxy: bool,
               trusted: str = DEFAULT_TRUSTED_PROXIES) -> str:
    """Who is asking: the peer address; behind a trusted proxy, the first `X-Forwarded-For`
    hop counted from the right that no trusted proxy added.

    Each proxy appends the address it received the request from, so only the hops at the
    right end, added by proxies in `trusted`, are facts; everything left of the first
    untrusted hop is whatever the client wrote. (All hops trusted: the leftmost.)

    Example:
        >>> client_key("127.0.0.1", "1.1.1.1, 203.0.113.5", True)
        '203.0.113.5'
        >>> client_key("198.51.100.9", "1.1.1.1", True)     # not a trusted proxy
        '198.51.100.9'
    """
    peer = host or "unknown"
    proxies = trusted_proxies(trusted)
    if not (trust_proxy and forwarded_for) or not proxies.trusts(peer):
        return peer
    hops = [hop.strip() for hop in forwarded_for.split(",")]
    if proxies.everyone:
        return hops[0][:MAX_KEY_CHARS] or peer
    for hop in reversed(hops):
        if not proxies.trusts(hop):
            return hop[:MAX_KEY_CHARS] or peer
    return hops[0][:MAX_KEY_CHARS] or peer
