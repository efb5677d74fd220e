"""Who a request is from: its address, and the learner's browser behind that address.

A class behind one school NAT or proxy is one address. Counting the share of sandbox slots
(and the rate) by address alone makes forty students one client, who then queue behind
each other and get 503s. So the page sends a random token it keeps in localStorage
(`X-Gradstep-Learner`), and the client key becomes address + token: one learner per
browser. A token is untrusted input: anyone can send a new one with every request. So one
address may name at most `per_address` learners at a time (the most recently seen); a
token beyond that is counted as the address itself, the key a request without a token
gets. The slots stay fair between addresses too (app/services/fair_gate.py groups the
learners by address), so minting tokens buys a flooder no more than its address's turn.

Example:
    >>> book = LearnerBook(per_address=1)
    >>> book.key("10.0.0.1", "a" * 16), book.key("10.0.0.1", "b" * 16)
    ('10.0.0.1|aaaaaaaaaaaaaaaa', '10.0.0.1')
    >>> address_of('10.0.0.1|aaaaaaaaaaaaaaaa')
    '10.0.0.1'
"""
from __future__ import annotations

import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

HEADER = "x-gradstep-learner"
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
SEPARATOR = "|"        # never part of an address (IPv4, IPv6 or "unknown")
IDLE_SECONDS = 15 * 60  # a learner not seen for this long no longer counts for its address


def address_of(client: str) -> str:
    """The address part of a client key (the key itself when it names no learner)."""
    return client.split(SEPARATOR, 1)[0]


class LearnerBook:
    """The learners each address has named recently, at most `per_address` of them."""

    def __init__(self, per_address: int = 64, max_addresses: int = 10_000,
                 clock: Callable[[], float] = time.monotonic):
        self.per_address, self.max_addresses, self.clock = per_address, max_addresses, clock
        self._seen: OrderedDict[str, OrderedDict[str, float]] = OrderedDict()
        self._lock = threading.Lock()

    def key(self, address: str, token: str | None) -> str:
        """The client key of a request from `address` carrying `token` (or none)."""
        if not token or self.per_address <= 0 or not TOKEN.fullmatch(token):
            return address
        now = self.clock()
        with self._lock:
            learners = self._seen.pop(address, None) or OrderedDict()
            self._seen[address] = learners          # most recently active address last
            while learners and now - next(iter(learners.values())) > IDLE_SECONDS:
                learners.popitem(last=False)
            admitted = token in learners or len(learners) < self.per_address
            if admitted:
                learners[token] = now
                learners.move_to_end(token)
            while len(self._seen) > self.max_addresses:
                self._seen.popitem(last=False)
        return f"{address}{SEPARATOR}{token}" if admitted else address

    def count(self, address: str) -> int:
        """How many learners `address` names now."""
        with self._lock:
            return len(self._seen.get(address, ()))
