"""Admission to the sandbox slots, fair between learners and between addresses.

A run needs one of `slots` sandbox workers. Without fairness one client that sends a few
`while True:` programs at a time holds every worker for its whole CPU limit, again and again,
and everyone else waits or gets a 503. So:

- a client (a learner: its address and the token its browser sends, app/services/learners.py;
  or the address alone) holds at most `per_client` slots at once
  (`GRADSTEP_CLIENT_SLOT_SHARE` of them, at least one); its further runs wait;
- a freed slot goes to the address holding the fewest slots among those waiting, and within
  an address to its learners in turn (round robin), not to whoever queued first: a client
  with many runs waiting cannot push one with a single run to the back, and an address that
  mints learner tokens gets no more than its turn while another address waits;
- a client may have at most `per_client_waiting` runs waiting, an address
  `per_address_waiting`, and all together `max_waiting`, so a flood costs a bounded number
  of parked requests; past a bound, or after `timeout` seconds of waiting, the answer is a
  503 with Retry-After;
- a waiting run may carry a name (the page's run id), by which `place(name)` tells the page
  where it stands in the line.

A slot is released however its request ends (answer, error, timeout, cancellation when the
client went away): `slot()` is a context manager. Everything runs on the event loop (no
locks): acquiring and releasing happen in coroutines.

Example:
    >>> gate = FairGate(slots=2, timeout=1.0, share=0.5)
    >>> gate.per_client, gate.per_client_waiting, gate.per_address_waiting
    (1, 20, 75)
"""
from __future__ import annotations

import asyncio
import itertools
import math
from collections import OrderedDict, deque
from contextlib import asynccontextmanager
from dataclasses import dataclass

from gradstep.app.errors import ApiError
from gradstep.app.services.learners import address_of


@dataclass(eq=False)
class _Ticket:
    """One waiting run."""
    client: str
    future: asyncio.Future
    seq: int
    name: str | None


class FairGate:
    """At most `slots` runs at once, at most `per_client` of them from one client."""

    MAX_WAITING = 100   # per web worker: a class of forty, each with a run or two in line

    def __init__(self, slots: int, timeout: float, share: float = 0.5,
                 max_waiting: int = MAX_WAITING):
        self.slots, self.timeout, self.max_waiting = slots, timeout, max_waiting
        self.per_client = max(1, math.floor(slots * share))
        self.per_client_waiting = max(1, max_waiting // 5)
        self.per_address_waiting = max(1, max_waiting * 3 // 4)
        self.free = slots
        self.running: dict[str, int] = {}             # client -> slots it holds
        self.address_running: dict[str, int] = {}    # address -> slots its clients hold
        # address -> client -> its waiting runs, oldest first; both dicts' order is the turn
        self._queues: OrderedDict[str, OrderedDict[str, deque[_Ticket]]] = OrderedDict()
        self._named: dict[str, _Ticket] = {}
        self._seq = itertools.count()
        self.waiting = 0

    @asynccontextmanager
    async def slot(self, client: str = "", name: str | None = None):
        """Hold one slot for `client` for the body of the `async with`; `name` lets
        `place(name)` find the run while it waits."""
        await self._acquire(client, name)
        try:
            yield
        finally:
            self._release(client)

    def place(self, name: str) -> int | None:
        """The place (1 = next) of the waiting run called `name`, or None if it is not
        waiting. Runs that came earlier stand before it; turns between clients may let a
        later one pass, so this is the line as it stands now."""
        ticket = self._named.get(name)
        if ticket is None:
            return None
        return 1 + sum(1 for clients in self._queues.values() for queue in clients.values()
                       for other in queue if other.seq < ticket.seq)

    async def _acquire(self, client: str, name: str | None = None) -> None:
        if self.free > 0 and self.running.get(client, 0) < self.per_client:
            self._grant(client)
            return
        self._check_room(client)
        ticket = _Ticket(client, asyncio.get_running_loop().create_future(), next(self._seq),
                         name)
        address = address_of(client)
        self._queues.setdefault(address, OrderedDict()).setdefault(client, deque()).append(
            ticket)
        self.waiting += 1
        if name is not None:
            self._named[name] = ticket
        try:
            await asyncio.wait_for(ticket.future, timeout=self.timeout)
        except BaseException as exc:
            if ticket.future.done() and not ticket.future.cancelled():
                self._release(client)       # granted just as the wait ended: hand it on
            else:
                self._withdraw(ticket)
            if isinstance(exc, TimeoutError):
                raise self._timed_out(client) from None
            raise

    def _check_room(self, client: str) -> None:
        if self.waiting >= self.max_waiting:
            raise _busy(f"{self.waiting} runs are already waiting for a sandbox worker. "
                        "Try again shortly.", 2)
        clients = self._queues.get(address_of(client)) or OrderedDict()
        mine = len(clients.get(client, ()))
        if mine >= self.per_client_waiting:
            raise _busy(f"This browser already has {mine} runs waiting for a sandbox "
                        "worker. Wait for their answers, then try again.", 2)
        if sum(len(q) for q in clients.values()) >= self.per_address_waiting:
            raise _busy(f"This address already has {self.per_address_waiting} runs waiting "
                        "for a sandbox worker. Wait for their answers, then try again.", 2)

    def _timed_out(self, client: str) -> ApiError:
        seconds = max(1, math.ceil(self.timeout))
        if self.running.get(client, 0) >= self.per_client:
            return _busy(f"This browser's earlier runs held its share of the sandbox workers "
                         f"({self.per_client} of {self.slots}) for {self.timeout:g} s. "
                         "Try again when they have finished.", seconds)
        return _busy(f"All {self.slots} sandbox workers stayed busy for {self.timeout:g} s. "
                     "Try again shortly.", seconds)

    def _grant(self, client: str) -> None:
        self.free -= 1
        self.running[client] = self.running.get(client, 0) + 1
        address = address_of(client)
        self.address_running[address] = self.address_running.get(address, 0) + 1

    def _release(self, client: str) -> None:
        self.free += 1
        _decrement(self.running, client)
        _decrement(self.address_running, address_of(client))
        self._dispatch()

    def _withdraw(self, ticket: _Ticket) -> None:
        address = address_of(ticket.client)
        clients = self._queues.get(address)
        queue = clients.get(ticket.client) if clients is not None else None
        if clients is not None and queue is not None and ticket in queue:
            queue.remove(ticket)
            self.waiting -= 1
            self._forget(ticket)
            if not queue:
                del clients[ticket.client]
            if not clients:
                del self._queues[address]

    def _forget(self, ticket: _Ticket) -> None:
        if ticket.name is not None and self._named.get(ticket.name) is ticket:
            del self._named[ticket.name]

    def _dispatch(self) -> None:
        """Give free slots to waiting runs: the address holding the fewest slots first (in
        turn among equals), and within it its clients in turn, skipping clients at their
        share."""
        while self.free > 0:
            chosen = self._next_client()
            if chosen is None:
                return
            address, client = chosen
            clients = self._queues.pop(address)          # to the back of the turn order
            queue = clients.pop(client)
            ticket = queue.popleft()
            self.waiting -= 1
            self._forget(ticket)
            if queue:
                clients[client] = queue
            if clients:
                self._queues[address] = clients
            if not ticket.future.done():     # a cancelled wait is withdrawn, not granted
                self._grant(client)
                ticket.future.set_result(None)

    def _next_client(self) -> tuple[str, str] | None:
        best = None
        for address, clients in self._queues.items():
            client = next((c for c in clients if self.running.get(c, 0) < self.per_client),
                          None)
            if client is None:
                continue
            held = self.address_running.get(address, 0)
            if best is None or held < best[0]:
                best = (held, address, client)
        return None if best is None else (best[1], best[2])


def _decrement(counts: dict[str, int], key: str) -> None:
    left = counts.get(key, 0) - 1
    if left > 0:
        counts[key] = left
    else:
        counts.pop(key, None)


def _busy(message: str, retry_after: int) -> ApiError:
    return ApiError(503, "busy", message, headers={"Retry-After": str(retry_after)})
