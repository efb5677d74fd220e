"""The lessons' and examples' answers are made once at start-up, in the background, and
pinned: a class opening a lesson costs lookups, even after the byte-bounded cache has been
flushed; a run cut by a limit is tried again and never pinned, and a failure is logged."""
from __future__ import annotations

import logging
import threading
import time

from gradstep.app.services.cache import LruCache
from gradstep.app.services.fair_gate import FairGate
from gradstep.app.services.runs import Answer, RunService
from gradstep.app.services.start_up import start_up_programs
from app_fakes import FakePool, FakeResult, sample_trace
from app_testing import fake_client, make_settings, run_in_own_loop


def wait_for(predicate, within=20.0):
    deadline = time.monotonic() + within
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_lessons_and_examples_are_answered_from_start_up_runs():
    pool = FakePool()
    programs = start_up_programs(make_settings())
    with fake_client(pool, precompute=True, layout_cache_size=0) as client:
        runs = client.app.state.runs
        wait_for(lambda: client.app.state.start_up.done())
        assert len(runs.pinned) == len(programs) == pool.runs
        for _ in range(40):                             # a class opens the first lesson
            assert client.get("/api/lessons/scalar-backward/run").status_code == 200
        example = client.get("/api/examples").json()[0]["id"]
        code = client.get(f"/api/examples/{example}").json()["code"]
        assert client.post("/api/run", json={"code": code}).status_code == 200
        assert pool.runs == len(programs)             # lookups only, with no cache at all


def test_the_server_answers_while_the_start_up_runs_go_on():
    pool = FakePool(hold=threading.Event())
    with fake_client(pool, precompute=True) as client:
        wait_for(pool.started.is_set)
        assert client.get("/healthz").status_code == 200
        assert not client.app.state.start_up.done()
        pool.hold.set()
        wait_for(lambda: client.app.state.start_up.done())


class FlakyPool(FakePool):
    """Cut by the wall clock `cuts` times, then answers."""

    def __init__(self, cuts: int):
        super().__init__()
        self.cuts = cuts

    def run(self, source, **kwargs):
        self.runs += 1
        if self.runs <= self.cuts:
            return FakeResult("", "LimitExceeded\n", 1,
                              {"type": "LimitExceeded", "message": "wall time limit exceeded "
                               "(20 s)", "line": None, "kind": "limit", "limit": "wall_time"},
                              sample_trace(source))
        return FakeResult("ok\n", trace=sample_trace(source))


def precompute(pool, attempts=3):
    runs = RunService(pool=pool, gate=FairGate(1, 5.0), max_program_bytes=10_000,
                      runs=LruCache(16, 1 << 20, Answer.weight), layouts=LruCache(16))
    failed = run_in_own_loop(runs.precompute(
        [("lesson 'slow'", "print(1)\n")], attempts=attempts, retry_seconds=0.01))
    return runs, failed


def test_a_run_cut_by_a_limit_is_tried_again_and_only_the_answer_is_pinned(caplog):
    caplog.set_level(logging.WARNING, logger="gradstep.app")
    runs, failed = precompute(FlakyPool(cuts=2))
    assert failed == [] and runs.pool.runs == 3
    (answer,) = runs.pinned.values()
    assert answer.data["result"]["error"] is None
    assert "start-up run 1 of 3 gave no answer to keep" in caplog.text


def test_a_lesson_that_never_finishes_at_start_up_is_reported_and_not_pinned(caplog):
    caplog.set_level(logging.WARNING, logger="gradstep.app")
    runs, failed = precompute(FlakyPool(cuts=10))
    assert failed == ["lesson 'slow'"] and runs.pinned == {} and runs.pool.runs == 3
    assert "lesson 'slow' could not be run at start-up (3 attempts): LimitExceeded: wall " \
        "time limit exceeded" in caplog.text
