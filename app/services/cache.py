"""A small thread-safe LRU map keyed by source hash (runs are deterministic: same source, same
trace, same layout), shared by the run and layout caches.

Example:
    >>> c = LruCache(1); c.put("a", 1); c.put("b", 2)
    >>> c.get("a") is None, c.get("b")
    (True, 2)
"""
from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from typing import Any


def source_key(source: str, *extra: str) -> str:
    """The cache key of a program (plus anything else the answer depends on)."""
    # surrogatepass: JSON may carry a lone surrogate ("\ud800"); it still has a key
    h = hashlib.sha256(source.encode("utf-8", "surrogatepass"))
    for part in extra:
        h.update(b"\0" + part.encode("utf-8", "surrogatepass"))
    return h.hexdigest()


class LruCache:
    """At most `size` items; the least recently used goes first. size 0 keeps nothing."""

    def __init__(self, size: int):
        self.size = size
        self._items: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def get(self, key: str) -> Any | None:
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                self.hits += 1
                return self._items[key]
            self.misses += 1
            return None

    def put(self, key: str, value: Any) -> None:
        if self.size <= 0:
            return
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)
