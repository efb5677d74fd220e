"""Admission to the sandbox slots, fair between clients.

A run needs one of `slots` sandbox workers. Without fairness one client that sends a few
`while True:` programs at a time holds every worker for its whole CPU limit, again and again,
and everyone else waits or gets a 503. So:

- a client (an address, as the rate limiter sees it) holds at most `per_client` slots at once
  (`GRADSTEP_CLIENT_SLOT_SHARE` of them, at least one); its further runs wait;
- a freed slot goes to the waiting clients in turn (round robin), not to whoever queued
  first, so a client with many runs waiting cannot push one with a single run to the back;
- a client may have at most `per_client_waiting` runs waiting, and all clients together
  `max_waiting`, so a flood costs a bounded number of parked requests; past either bound, or
  after `timeout` seconds of waiting, the answer is a 503 with Retry-After.

Everything runs on the event loop (no locks): acquiring and releasing happen in coroutines.

Example:
    >>> gate = FairGate(slots=2, timeout=1.0, share=0.5)
    >>> gate.per_client, gate.per_client_waiting
    (1, 10)
"""
from __future__ import annotations

import asyncio
import math
from collections import OrderedDict, deque
from contextlib import asynccontextmanager

from gradstep.app.errors import ApiError


class FairGate:
    """At most `slots` runs at once, at most `per_client` of them from one client."""

    MAX_WAITING = 50   # per web worker; at the default 10 s timeout, far above what 2 slots drain

    def __init__(self, slots: int, timeout: float, share: float = 0.5,
                 max_waiting: int = MAX_WAITING):
        self.slots, self.timeout, self.max_waiting = slots, timeout, max_waiting
        self.per_client = max(1, math.floor(slots * share))
        self.per_client_waiting = max(1, max_waiting // 5)
        self.free = slots
        self.running: dict[str, int] = {}
        # client -> its waiting runs, oldest first; the dict's order is the round-robin turn
        self._queues: OrderedDict[str, deque[asyncio.Future]] = OrderedDict()
        self.waiting = 0

    @asynccontextmanager
    async def slot(self, client: str = ""):
        """Hold one slot for `client` for the body of the `async with`."""
        await self._acquire(client)
        try:
            yield
        finally:
            self._release(client)

    async def _acquire(self, client: str) -> None:
        if self.free > 0 and self.running.get(client, 0) < self.per_client:
            self._grant(client)
            return
        queue = self._queues.get(client)
        if self.waiting >= self.max_waiting:
            raise _busy(f"{self.waiting} runs are already waiting for a sandbox worker. "
                        "Try again shortly.", 2)
        if queue is not None and len(queue) >= self.per_client_waiting:
            raise _busy(f"This address already has {len(queue)} runs waiting for a sandbox "
                        "worker. Wait for their answers, then try again.", 2)
        ticket = asyncio.get_running_loop().create_future()
        self._queues.setdefault(client, deque()).append(ticket)
        self.waiting += 1
        try:
            await asyncio.wait_for(ticket, timeout=self.timeout)
        except BaseException as exc:
            if ticket.done() and not ticket.cancelled():
                self._release(client)       # granted just as the wait ended: hand it on
            else:
                self._withdraw(client, ticket)
            if isinstance(exc, TimeoutError):
                raise self._timed_out(client) from None
            raise

    def _timed_out(self, client: str) -> ApiError:
        seconds = max(1, math.ceil(self.timeout))
        if self.running.get(client, 0) >= self.per_client:
            return _busy(f"This address's earlier runs held its share of the sandbox workers "
                         f"({self.per_client} of {self.slots}) for {self.timeout:g} s. "
                         "Try again when they have finished.", seconds)
        return _busy(f"All {self.slots} sandbox workers stayed busy for {self.timeout:g} s. "
                     "Try again shortly.", seconds)

    def _grant(self, client: str) -> None:
        self.free -= 1
        self.running[client] = self.running.get(client, 0) + 1

    def _release(self, client: str) -> None:
        self.free += 1
        left = self.running.get(client, 0) - 1
        if left > 0:
            self.running[client] = left
        else:
            self.running.pop(client, None)
        self._dispatch()

    def _withdraw(self, client: str, ticket: asyncio.Future) -> None:
        queue = self._queues.get(client)
        if queue is not None and ticket in queue:
            queue.remove(ticket)
            self.waiting -= 1
            if not queue:
                del self._queues[client]

    def _dispatch(self) -> None:
        """Give free slots to waiting clients in turn, skipping those at their share."""
        while self.free > 0:
            chosen = next((c for c in self._queues
                           if self.running.get(c, 0) < self.per_client), None)
            if chosen is None:
                return
            queue = self._queues.pop(chosen)    # to the back of the turn order
            ticket = queue.popleft()
            self.waiting -= 1
            if queue:
                self._queues[chosen] = queue
            if not ticket.done():               # a cancelled wait is withdrawn, not granted
                self._grant(chosen)
                ticket.set_result(None)


def _busy(message: str, retry_after: int) -> ApiError:
    return ApiError(503, "busy", message, headers={"Retry-After": str(retry_after)})
