"""A small thread-safe LRU map keyed by source hash (runs are deterministic: same source, same
trace, same layout), bounded both in entries and in bytes.

The byte bound is what keeps memory flat when a stream of distinct programs with large
answers arrives: an entry count alone lets 256 two-megabyte answers pile up. Each value
declares its weight through `weigh(value)`; an entry heavier than the whole budget is not kept.

Example:
    >>> c = LruCache(1); c.put("a", 1); c.put("b", 2)
    >>> c.get("a") is None, c.get("b")
    (True, 2)
    >>> c = LruCache(10, max_bytes=5, weigh=len, overhead=0)
    >>> c.put("a", b"abc"); c.put("b", b"de")
    >>> c.put("c", b"f"); c.get("a") is None, c.nbytes
    (True, 3)
"""
from __future__ import annotations

import hashlib
import json
import threading
import zlib
from collections import OrderedDict
from typing import Any
from collections.abc import Callable

# What a cached entry costs besides its declared weight: the key (64 hex characters), the
# dictionary slot and the small objects around the value. Counted so that a flood of tiny
# answers is bounded by the byte budget as well.
ENTRY_OVERHEAD = 400


def source_key(source: str, *extra: str) -> str:
    """The cache key of a program (plus anything else the answer depends on)."""
    # surrogatepass: JSON may carry a lone surrogate ("\ud800"); it still has a key
    h = hashlib.sha256(source.encode("utf-8", "surrogatepass"))
    for part in extra:
        h.update(b"\0" + part.encode("utf-8", "surrogatepass"))
    return h.hexdigest()


class LruCache:
    """At most `size` items and `max_bytes` bytes (None: no byte bound); the least recently
    used goes first. size 0 keeps nothing."""

    def __init__(self, size: int, max_bytes: int | None = None,
                 weigh: Callable[[Any], int] | None = None, overhead: int = ENTRY_OVERHEAD):
        self.size = size
        self.overhead = overhead
        self.max_bytes = max_bytes
        self._weigh = weigh or (lambda value: 0)
        self._items: OrderedDict[str, tuple[Any, int]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = 0
        self.nbytes = 0

    def get(self, key: str) -> Any | None:
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                self.hits += 1
                return self._items[key][0]
            self.misses += 1
            return None

    def put(self, key: str, value: Any) -> None:
        if self.size <= 0:
            return
        weight = self._weigh(value) + self.overhead
        if self.max_bytes is not None and weight > self.max_bytes:
            return
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.nbytes -= old[1]
            self._items[key] = (value, weight)
            self.nbytes += weight
            while len(self._items) > self.size or (
                    self.max_bytes is not None and self.nbytes > self.max_bytes):
                self.nbytes -= self._items.popitem(last=False)[1][1]

    def __len__(self) -> int:
        return len(self._items)


class PackedLruCache(LruCache):
    """An LruCache of JSON values kept as zlib-compressed JSON, charged their real bytes.

    A layout of 2,000 boxes is some 20,000 small Python objects (dicts, floats, strings),
    several times the bytes any estimate from its size would charge; kept packed, what the
    byte bound counts is what the cache holds. A hit decodes it again (a few ms for the
    largest layout, against seconds to lay it out), and every `get` returns a fresh value
    the caller may change.

    Example:
        >>> c = PackedLruCache(4, max_bytes=10_000)
        >>> c.put("k", {"svg": "<svg/>", "nodes": {"t0": {"x": 1.5}}})
        >>> c.get("k")["nodes"]["t0"]["x"], c.nbytes < 10_000
        (1.5, True)
    """

    def __init__(self, size: int, max_bytes: int | None = None,
                 overhead: int = ENTRY_OVERHEAD):
        super().__init__(size, max_bytes, weigh=len, overhead=overhead)

    def get(self, key: str) -> Any | None:
        packed = super().get(key)
        return None if packed is None else json.loads(zlib.decompress(packed))

    def put(self, key: str, value: Any) -> None:
        if self.size <= 0:
            return
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
        super().put(key, zlib.compress(text.encode("utf-8", "surrogatepass"), 1))
