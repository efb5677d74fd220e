"""Per-process structures stay bounded whatever the clients send: the answer cache in bytes
(a stream of distinct programs with large answers), and the rate limiter's table of clients."""
from __future__ import annotations

import os
from dataclasses import dataclass

from gradstep.app.services.cache import LruCache
from gradstep.app.services.limits import RateLimiter
from app_fakes import FakeResult, sample_trace
from app_testing import fake_client


@dataclass
class BigAnswerPool:
    """Each program prints `size` bytes that gzip cannot shrink much (random hex)."""

    size: int = 100_000
    runs: int = 0

    def run(self, source: str, **_) -> FakeResult:
        self.runs += 1
        return FakeResult(os.urandom(self.size // 2).hex(), trace=sample_trace(source))

    def ping(self) -> float:
        return 0.001

    def close(self) -> None:
        pass


def test_answer_cache_stays_within_its_byte_budget():
    budget = 500_000
    pool = BigAnswerPool()
    with fake_client(pool, answer_cache_bytes=budget, layout_cache_size=1000) as c:
        cache: LruCache = c.app.state.runs.runs
        for i in range(30):          # about 55 kB each compressed: ten times the budget
            assert c.post("/api/run", json={"code": f"print({i})"}).status_code == 200
            assert cache.nbytes <= budget
        assert 3 <= len(cache) < 30
        assert pool.runs == 30
        c.post("/api/run", json={"code": "print(29)"})        # the newest is still cached
        assert pool.runs == 30
        c.post("/api/run", json={"code": "print(0)"})         # the oldest was let go
        assert pool.runs == 31


def test_an_answer_larger_than_the_whole_budget_is_served_but_not_kept():
    pool = BigAnswerPool(size=400_000)
    with fake_client(pool, answer_cache_bytes=100_000) as c:
        for _ in range(2):
            r = c.post("/api/run", json={"code": "print('big')"})
            assert r.status_code == 200 and len(r.json()["result"]["stdout"]) == 400_000
        assert pool.runs == 2 and len(c.app.state.runs.runs) == 0


def test_cache_weighs_what_it_holds():
    cache = LruCache(100, max_bytes=1000, weigh=len, overhead=10)
    cache.put("a", b"x" * 500)
    cache.put("a", b"x" * 300)                  # replacing an entry does not count it twice
    assert cache.nbytes == 310
    cache.put("b", b"y" * 600)
    assert cache.nbytes == 920 and len(cache) == 2
    cache.put("c", b"z" * 100)                  # over budget: "a", the oldest, goes
    assert cache.get("a") is None and cache.get("b") is not None
    assert cache.nbytes == 720


def test_rate_limiter_table_is_bounded_even_when_every_client_is_active():
    now = [0.0]
    limiter = RateLimiter(per_minute=10, clock=lambda: now[0], max_clients=100)
    for i in range(1000):                       # a thousand addresses within one second
        now[0] = i / 1000
        assert limiter.check(f"10.0.{i // 250}.{i % 250}") == 0.0
    assert len(limiter._buckets) <= 100


def test_headers_over_the_bound_are_431_under_any_server():
    # The middleware's own check (gradstep serve also bounds the head while reading it).
    with fake_client(max_header_bytes=4096) as c:
        r = c.get("/healthz", headers={"x-fill": "a" * 5000})
        assert r.status_code == 431
        error = r.json()["error"]
        assert error["code"] == "headers_too_large" and "4096-byte" in error["message"]
        assert r.headers["connection"] == "close"
        assert c.get("/healthz", headers={"x-fill": "a" * 3000}).status_code == 200


def test_the_layout_cache_charges_what_it_really_holds_and_hands_out_copies():
    from gradstep.app.services.cache import PackedLruCache
    layout = {"svg": "<svg>" + "<g/>" * 5000 + "</svg>",
              "nodes": {f"t{i}": {"x": i * 1.5, "y": 2.0, "w": 40, "h": 20}
                        for i in range(2000)}, "edges": []}
    cache = PackedLruCache(100, max_bytes=200_000)
    cache.put("a", layout)
    assert 0 < cache.nbytes <= 200_000
    got = cache.get("a")
    assert got == layout
    got["nodes"].clear()                           # the caller's copy, not the cache's
    assert len(cache.get("a")["nodes"]) == 2000
    for i in range(100):                           # distinct layouts: the bound holds
        cache.put(f"k{i}", {**layout, "svg": layout["svg"] + str(i) * 3000})
        assert cache.nbytes <= 200_000
