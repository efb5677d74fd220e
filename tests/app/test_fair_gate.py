"""FairGate: one client holds at most its share of the sandbox slots, freed slots go to the
waiting clients in turn, waiting is bounded, and a wait that ends (timeout, disconnect)
leaves nothing behind."""
from __future__ import annotations

import asyncio

import pytest

from gradstep.app.errors import ApiError
from gradstep.app.services.fair_gate import FairGate
from app_testing import run_in_own_loop


def run(coro):
    return run_in_own_loop(coro, 10)


async def hold(gate: FairGate, client: str, log: list, release: asyncio.Event):
    async with gate.slot(client):
        log.append(client)
        await release.wait()


async def settle():
    for _ in range(5):
        await asyncio.sleep(0)


def test_a_client_holds_at_most_its_share_while_others_get_the_rest():
    async def main():
        gate = FairGate(slots=4, timeout=5, share=0.5)
        log, release = [], asyncio.Event()
        tasks = [asyncio.create_task(hold(gate, "flood", log, release)) for _ in range(5)]
        await settle()
        assert log == ["flood", "flood"] and gate.free == 2 and gate.waiting == 3
        tasks.append(asyncio.create_task(hold(gate, "honest", log, release)))
        await settle()
        assert log[-1] == "honest" and gate.free == 1     # served at once, not queued
        release.set()
        await asyncio.gather(*tasks)
        assert gate.free == 4 and gate.waiting == 0 and not gate.running
        assert log.count("flood") == 5
    run(main())


def test_freed_slots_go_to_waiting_clients_in_turn():
    async def main():
        gate = FairGate(slots=1, timeout=5, share=1.0)
        order, gates = [], {}

        async def job(name: str):
            client = name[0]
            gates[name] = asyncio.Event()
            async with gate.slot(client):
                order.append(name)
                await gates[name].wait()

        tasks = [asyncio.create_task(job(n)) for n in ("a1", "a2", "a3", "a4")]
        await settle()
        tasks.append(asyncio.create_task(job("b1")))      # queued behind three of a's
        await settle()
        for _ in range(5):
            gates[order[-1]].set()
            await settle()
        await asyncio.gather(*tasks)
        assert order == ["a1", "a2", "b1", "a3", "a4"]
    run(main())


def test_one_client_cannot_fill_the_waiting_room():
    async def main():
        gate = FairGate(slots=1, timeout=5, max_waiting=10)
        assert gate.per_client_waiting == 2
        release = asyncio.Event()
        tasks = [asyncio.create_task(hold(gate, "flood", [], release)) for _ in range(3)]
        await settle()
        with pytest.raises(ApiError) as refused:
            await gate._acquire("flood")
        assert refused.value.status == 503 and "already has 2 runs" in refused.value.message
        honest = asyncio.create_task(hold(gate, "honest", [], release))
        await settle()
        assert gate.waiting == 3                             # the honest one may still wait
        release.set()
        await asyncio.gather(*tasks, honest)
    run(main())


def test_a_timed_out_wait_is_503_naming_the_share_and_leaves_nothing_behind():
    async def main():
        gate = FairGate(slots=2, timeout=0.1, share=0.5)
        release = asyncio.Event()
        holder = asyncio.create_task(hold(gate, "a", [], release))
        await settle()
        with pytest.raises(ApiError) as busy:
            async with gate.slot("a"):
                pass
        assert busy.value.status == 503 and busy.value.headers["Retry-After"] == "1"
        assert "share of the sandbox workers (1 of 2)" in busy.value.message
        assert gate.waiting == 0 and not gate._queues
        release.set()
        await holder
        assert gate.free == 2 and not gate.running
    run(main())


def test_a_cancelled_wait_is_withdrawn_and_the_slot_goes_to_the_next():
    async def main():
        gate = FairGate(slots=1, timeout=5, share=1.0)
        log, release = [], asyncio.Event()
        holder = asyncio.create_task(hold(gate, "a", log, release))
        await settle()
        gone = asyncio.create_task(hold(gate, "b", log, release))
        after = asyncio.create_task(hold(gate, "c", log, release))
        await settle()
        gone.cancel()                                        # the client disconnected
        await settle()
        assert gate.waiting == 1
        release.set()
        await asyncio.gather(holder, after)
        assert log == ["a", "c"] and gate.free == 1 and not gate.running
    run(main())


def test_learners_behind_one_address_each_hold_a_share():
    async def main():
        gate = FairGate(slots=4, timeout=5, share=0.25)
        log, release = [], asyncio.Event()
        tasks = [asyncio.create_task(hold(gate, f"10.0.0.1|learner{i:011d}", log, release))
                 for i in range(3)]
        await settle()
        assert len(log) == 3 and gate.waiting == 0        # three learners, three slots
        release.set()
        await asyncio.gather(*tasks)
        assert gate.free == 4 and not gate.address_running
    run(main())


def test_an_address_minting_learners_gets_no_more_than_its_turn():
    async def main():
        gate = FairGate(slots=2, timeout=5, share=0.5)
        order, gates = [], {}

        async def job(client: str, name: str):
            gates[name] = asyncio.Event()
            async with gate.slot(client):
                order.append(name)
                await gates[name].wait()

        flood = [asyncio.create_task(job(f"6.6.6.6|minted{i:010d}", f"f{i}"))
                 for i in range(6)]
        await settle()
        assert order == ["f0", "f1"] and gate.waiting == 4
        honest = asyncio.create_task(job("10.0.0.1", "h"))
        await settle()
        gates["f0"].set()                 # the next free slot goes to the other address
        await settle()
        assert order[-1] == "h"
        for name in ("f1", "h", "f2", "f3", "f4", "f5"):
            gates[name].set()
            await settle()
        await asyncio.gather(*flood, honest)
        assert gate.free == 2 and gate.waiting == 0 and not gate.running
    run(main())


def test_place_tells_a_waiting_run_where_it_stands():
    async def main():
        gate = FairGate(slots=1, timeout=5, share=1.0)
        release = asyncio.Event()
        holder = asyncio.create_task(hold(gate, "a", [], release))
        await settle()

        async def named(client: str, name: str):
            async with gate.slot(client, name):
                await release.wait()

        waiting = [asyncio.create_task(named(c, n)) for c, n in
                   (("b", "run-b"), ("c", "run-c"), ("d", "run-d"))]
        await settle()
        assert [gate.place(n) for n in ("run-b", "run-c", "run-d")] == [1, 2, 3]
        assert gate.place("nobody") is None
        waiting[0].cancel()                                # b went away
        await settle()
        assert gate.place("run-b") is None and gate.place("run-d") == 2
        release.set()
        await asyncio.gather(holder, *waiting[1:])
        assert gate.place("run-c") is None and not gate._named
    run(main())


def test_one_address_cannot_fill_the_waiting_room_with_minted_learners():
    async def main():
        gate = FairGate(slots=1, timeout=5, max_waiting=8)
        assert gate.per_address_waiting == 6
        release = asyncio.Event()
        tasks = [asyncio.create_task(hold(gate, f"6.6.6.6|minted{i:010d}", [], release))
                 for i in range(7)]                 # one runs, six wait
        await settle()
        with pytest.raises(ApiError) as refused:
            await gate._acquire("6.6.6.6|minted9999999999")
        assert refused.value.status == 503 and "This address already has 6" in \
            refused.value.message
        other = asyncio.create_task(hold(gate, "10.0.0.1", [], release))
        await settle()
        assert gate.waiting == 7                    # another address may still wait
        release.set()
        await asyncio.gather(*tasks, other)
    run(main())
