"""Nothing the server does with an answer runs unbounded: module groups that claim to be their
own ancestors (a forged or buggy trace) are drawn without looping, and a layout that runs past
GRADSTEP_LAYOUT_TIMEOUT is stopped, leaving the answer without its picture and a note."""
from __future__ import annotations

import copy
import threading
import time

import anyio
import pytest

from gradstep.app.main import create_app
from gradstep.app.services import runs as runs_service
from gradstep.app.services.deadline import Overrun, deadline, expire_all, running
from gradstep.app.services.layout import layout_trace
from gradstep.app.services.render import render_trace
from app_fakes import FakePool, FakeResult, sample_trace
from app_testing import fake_client, make_settings, run_in_own_loop

BOUND = 60.0      # seconds: generous on a loaded machine; the loop this guards never ends


def scoped(parents: dict[str, str | None]) -> dict:
    """The sample trace with two module calls: `outer` around both ops, `inner` around the
    first; their parents as given (a real trace has outer -> None, inner -> outer)."""
    trace = copy.deepcopy(sample_trace())
    calls = {"inner": ([1, 2], [0, 2]), "outer": ([1, 4], [0, 3])}
    trace["scopes"] = [{"path": path, "type": path.title(), "extra": "", "user": True,
                        "parent": parents[path], "t": list(t), "n": list(n)}
                       for path, (t, n) in calls.items()]
    return trace


CYCLES = {
    "self": {"inner": "inner", "outer": None},
    "two": {"inner": "outer", "outer": "inner"},
    "self-outer": {"inner": "outer", "outer": "outer"},
}


def finishes(fn, *args):
    """fn(*args) in a thread, or a test failure (not a hung test run) after BOUND seconds."""
    out: dict = {}
    worker = threading.Thread(target=lambda: out.setdefault("value", fn(*args)), daemon=True)
    worker.start()
    worker.join(BOUND)
    assert not worker.is_alive(), f"{fn.__name__} did not finish within {BOUND:g} s"
    return out["value"]


def parent_chain_ends(groups: dict, gid: str) -> bool:
    seen = set()
    while gid is not None:
        if gid in seen:
            return False
        seen.add(gid)
        gid = groups[gid]["parent"] if gid in groups else None
    return True


@pytest.mark.parametrize("case", sorted(CYCLES))
def test_a_group_that_is_its_own_ancestor_is_laid_out_without_a_cycle(case):
    layout = finishes(layout_trace, scoped(CYCLES[case]))
    groups = layout["groups"]
    assert {g["path"] for g in groups.values()} == {"inner", "outer"}
    assert all(parent_chain_ends(groups, gid) for gid in groups)
    assert all(g["parent"] != gid for gid, g in groups.items())
    # every box of a group is listed once, however the parents were forged
    for g in groups.values():
        assert len(g["members"]) == len(set(g["members"]))


@pytest.mark.parametrize("case", sorted(CYCLES))
def test_a_group_that_is_its_own_ancestor_renders(case):
    svg = finishes(render_trace, scoped(CYCLES[case]), "svg")
    assert b'id="g_inner"' in svg and b'id="g_outer"' in svg


class ForgedPool(FakePool):
    """Answers with the sample trace whose module groups are their own ancestors."""

    def run(self, source: str, **_) -> FakeResult:
        self.runs += 1
        return FakeResult("ok\n", trace=scoped(CYCLES["two"]))


def test_run_render_and_export_answer_a_trace_with_cyclic_groups():
    with fake_client(ForgedPool()) as c:
        for path in ("/api/run", "/api/render", "/api/export"):
            r = c.post(path, json={"code": f"x = 1  # {path}\n"}, timeout=BOUND)
            assert r.status_code == 200, (path, r.text[:300])
        assert c.post("/api/run", json={"code": "y = 2\n"}).json()["layout"]["groups"]


def never_ends(*args, **kwargs):
    while True:
        time.sleep(0)


def test_a_layout_past_its_deadline_gives_the_answer_without_its_picture(monkeypatch):
    monkeypatch.setattr(runs_service, "layout_trace", never_ends)
    with fake_client(layout_timeout=1.0) as c:
        started = time.monotonic()
        r = c.post("/api/run", json={"code": "x = 1\n"}, timeout=BOUND)
        assert time.monotonic() - started < BOUND
        assert r.status_code == 200
        answer = r.json()
        assert answer["layout"] is None and answer["result"]["stdout"] == "ok\n"
        assert "1 s" in answer["layout_note"] and "not drawn" in answer["layout_note"]
        monkeypatch.undo()
        # the stopped layout left nothing behind: the next answer has its picture
        assert c.post("/api/run", json={"code": "x = 2\n"}).json()["layout"]["nodes"]


def test_shutting_down_ends_every_running_deadline_at_once():
    ended = threading.Event()

    def busy() -> None:
        try:
            with deadline(3600):
                never_ends()
        except Overrun:
            ended.set()
    worker = threading.Thread(target=busy, daemon=True)
    worker.start()
    time.sleep(0.2)
    assert expire_all() >= 1
    assert ended.wait(BOUND)
    assert expire_all() == 0


def test_a_deadline_that_was_not_reached_leaves_nothing_behind():
    for _ in range(20):
        with deadline(0.5):
            pass
    time.sleep(0.7)          # past every deadline: their timers were cancelled
    assert sum(range(10**5)) > 0       # no stray Overrun surfaces in later code


def test_shutting_the_app_down_stops_a_layout_in_progress(monkeypatch):
    started = threading.Event()

    def starts_and_never_ends(*args, **kwargs):
        started.set()
        never_ends()
    monkeypatch.setattr(runs_service, "layout_trace", starts_and_never_ends)
    app = create_app(make_settings(layout_timeout=3600), pool_factory=lambda s: FakePool())
    out: list = []

    async def serve_then_stop() -> threading.Thread:
        async with app.router.lifespan_context(app):
            worker = threading.Thread(
                target=lambda: out.append(app.state.runs.layout(sample_trace())), daemon=True)
            worker.start()
            assert await anyio.to_thread.run_sync(started.wait, BOUND), "no layout started"
            assert running() == 1
        return worker      # the lifespan's shutdown has run

    worker = run_in_own_loop(serve_then_stop(), 2 * BOUND)
    worker.join(BOUND)
    assert not worker.is_alive(), "shutting down left the layout running"
    layout, note = out[0]
    assert layout is None and "stopped" in note
