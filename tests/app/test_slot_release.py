"""A sandbox slot is released however its request ends: an answer, an error, a run cut by a
limit, a wait that timed out, and a client that went away while waiting or while running
(its run is then withdrawn or stopped, so the slot goes to someone who is still there)."""
from __future__ import annotations

import asyncio
import threading

import pytest

from gradstep.app.errors import ApiError
from gradstep.app.services.cache import LruCache
from gradstep.app.services.fair_gate import FairGate
from gradstep.app.services.runs import Answer, RunService
from app_fakes import FakeResult, sample_trace
from app_testing import run_in_own_loop


class ScriptedPool:
    """Runs end as the program says: "ok", "raise" (the pool fails), "limit" (cut by the
    wall clock), "hang" (until stopped through on_start's function, or 30 s) or "wait" (until
    `release` is set)."""

    def __init__(self):
        self.started = threading.Event()
        self.release = threading.Event()
        self.stopped = threading.Event()
        self.runs = 0

    def run(self, source: str, on_start=None, **_):
        self.runs += 1
        stop = threading.Event()
        if on_start is not None:
            on_start(lambda: (stop.set(), self.stopped.set()))
        self.started.set()
        if source.startswith("raise"):
            raise RuntimeError("the pool failed")
        if source.startswith("limit"):
            return FakeResult("", "LimitExceeded\n", 1,
                              {"type": "LimitExceeded", "message": "wall time limit exceeded",
                               "line": None, "kind": "limit", "limit": "wall_time"},
                              sample_trace(source))
        if source.startswith("wait"):
            self.release.wait(30)
        if source.startswith("hang"):
            stop.wait(30)
            return FakeResult("", "WorkerCrashed\n", 1,
                              {"type": "WorkerCrashed", "message": "stopped", "line": None,
                               "kind": "crash"}, None)
        return FakeResult("ok\n", trace=sample_trace(source))


def service(slots: int = 1, timeout: float = 5.0) -> tuple[RunService, ScriptedPool]:
    pool = ScriptedPool()
    return RunService(pool=pool, gate=FairGate(slots, timeout, share=1.0),
                      max_program_bytes=10_000, runs=LruCache(16, 1 << 20, Answer.weight),
                      layouts=LruCache(16)), pool


def run(coro):
    return run_in_own_loop(coro, 20)


async def until(predicate, within: float = 10.0) -> None:
    for _ in range(int(within / 0.01)):
        if predicate():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("timed out")


def assert_all_free(runs: RunService) -> None:
    gate = runs.gate
    assert gate.free == gate.slots and gate.waiting == 0 and not gate.running
    assert not gate._queues and not gate._named and not runs._inflight


def test_released_after_an_answer():
    runs, _ = service()
    answer = run(runs.run("print(1)\n", "a"))
    assert answer.outcome == "ok"
    assert_all_free(runs)


def test_released_after_an_error():
    runs, _ = service()
    with pytest.raises(RuntimeError):
        run(runs.run("raise\n", "a"))
    assert_all_free(runs)


def test_released_after_a_run_cut_by_a_limit_which_is_not_cached():
    runs, pool = service()
    answer = run(runs.run("limit\n", "a"))
    assert answer.outcome == "limit"
    assert_all_free(runs)
    run(runs.run("limit\n", "a"))
    assert pool.runs == 2                  # not an answer to keep: run again


def test_a_wait_that_times_out_leaves_nothing_behind():
    async def main():
        runs, pool = service(timeout=0.2)
        holder = asyncio.create_task(runs.run("hang\n", "a", "hang-0123456789abcd"))
        await until(pool.started.is_set)
        with pytest.raises(ApiError) as busy:
            await runs.run("print(2)\n", "b", "late-0123456789abcd")
        assert busy.value.status == 503
        runs.stop("hang-0123456789abcd")
        with pytest.raises(ApiError):               # 409: stopped
            await holder
        return runs
    assert_all_free(run(main()))


def test_a_client_gone_while_waiting_is_withdrawn():
    async def main():
        runs, pool = service()
        holder = asyncio.create_task(runs.run("hang\n", "a", "hang-0123456789abcd"))
        await until(pool.started.is_set)
        left = asyncio.Event()
        waiter = asyncio.create_task(runs.run("print(3)\n", "b", "gone-0123456789abcd",
                                              gone=left.wait))
        await until(lambda: runs.progress("gone-0123456789abcd")["state"] == "waiting")
        assert runs.progress("gone-0123456789abcd")["place"] == 1
        left.set()
        with pytest.raises(ApiError) as gone:
            await waiter
        assert gone.value.code == "client_gone" and runs.gate.waiting == 0
        assert pool.runs == 1                       # it never ran
        runs.stop("hang-0123456789abcd")
        with pytest.raises(ApiError):
            await holder
        return runs
    assert_all_free(run(main()))


def test_a_client_gone_while_running_stops_its_run():
    async def main():
        runs, pool = service()
        left = asyncio.Event()
        task = asyncio.create_task(runs.run("hang\n", "a", "hang-0123456789abcd",
                                            gone=left.wait))
        await until(lambda: runs.progress("hang-0123456789abcd")["state"] == "running")
        left.set()
        with pytest.raises(ApiError) as gone:
            await task
        assert gone.value.code == "client_gone" and pool.stopped.is_set()
        after = await runs.run("print(4)\n", "b")      # the slot serves the next one
        assert after.outcome == "ok"
        return runs
    assert_all_free(run(main()))


def test_learners_asking_for_a_program_under_way_share_its_one_run():
    async def main():
        runs, pool = service(slots=2)
        first = asyncio.create_task(runs.run("wait\n", "a", "lead-0123456789abcd"))
        await until(pool.started.is_set)
        others = [asyncio.create_task(runs.run("wait\n", f"b{i}", f"follow-{i:012d}"))
                  for i in range(3)]
        await asyncio.sleep(0.05)
        assert runs.progress("follow-000000000001")["state"] == "running"
        pool.release.set()
        answers = await asyncio.gather(first, *others)
        assert pool.runs == 1
        assert {a.gz for a in answers} == {answers[0].gz}
        return runs
    assert_all_free(run(main()))
