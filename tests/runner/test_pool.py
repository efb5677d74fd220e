"""WorkerPool: bounded concurrency, ping, recycling, surviving killed workers and spares, and
the trace passed through as bytes."""
import json
import os
import signal
import threading
import time

import pytest

from gradstep.runner import Limits, WorkerPool, child, zygote
from gradstep.runner import trace as T
from gradstep.runner.sandbox import _decode_trace


def _children(pid):
    """Live child pids of `pid` (the runs a zygote has forked)."""
    out = []
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/children") as f:
                out += [int(c) for c in f.read().split()]
        except FileNotFoundError:
            pass
    return out


def _busy_child(zygote_pid):
    """The zygote's child that is running BUSY, once it runs: it has used CPU time. A zygote
    also keeps a spare child forked for its next request, and reaps a finished run's child
    just after answering; neither uses more than a few milliseconds of CPU."""
    def find():
        for pid in _children(zygote_pid):
            try:
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except FileNotFoundError:
                continue
            if int(fields[11]) >= 5:       # utime, in clock ticks (1/100 s)
                return pid
        return None
    return _wait_for(find)


def _wait_for(predicate, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError("condition not reached")


def _run_in_thread(pool, source):
    box = {}
    thread = threading.Thread(target=lambda: box.update(result=pool.run(source, trace=False)))
    thread.start()
    return thread, box


BUSY = "print('started')\nwhile True:\n    pass\n"


def test_ping_is_a_round_trip(pool):
    assert 0 < pool.ping() < 5


def test_concurrent_runs_all_complete():
    with WorkerPool(size=2, limits=Limits(cpu_seconds=2, wall_seconds=30)) as pool:
        results = [None] * 4

        def go(i):
            results[i] = pool.run(f"print({i} * 10)\n", trace=False)
        threads = [threading.Thread(target=go, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert [r.stdout for r in results] == [f"{i * 10}\n" for i in range(4)]


def test_a_run_killed_mid_way_gets_a_clear_error_and_the_next_run_succeeds(pool):
    zygote_pid = pool._workers[0].pid
    thread, box = _run_in_thread(pool, BUSY)
    child = _busy_child(zygote_pid)
    os.kill(child, signal.SIGKILL)
    thread.join(10)
    result = box["result"]
    assert result.exit_code == 1
    assert result.error["kind"] == "crash"
    assert "SIGKILL" in result.error["message"]
    assert result.stderr.strip().endswith(result.error["message"])
    follow = pool.run("print('still here')\n", trace=False)
    assert (follow.stdout, follow.exit_code) == ("still here\n", 0)


def test_a_killed_worker_is_replaced_and_the_next_run_succeeds(pool):
    zygote = pool._workers[0]
    thread, box = _run_in_thread(pool, BUSY)
    _busy_child(zygote.pid)
    os.killpg(zygote.pid, signal.SIGKILL)
    thread.join(20)
    result = box["result"]
    assert result.exit_code == 1
    assert result.error["kind"] == "crash"
    assert "worker" in result.error["message"]
    assert zygote not in pool._workers
    follow = pool.run("print('replaced')\n", trace=False)
    assert (follow.stdout, follow.exit_code) == ("replaced\n", 0)


def test_the_layers_stay_known_while_every_worker_is_being_replaced():
    """Pages ask the pool whether its sandbox is whole; the answer must not depend on whether
    a worker happens to be there at that moment (a page with a program from a link would
    otherwise wait for Run on a server that has every layer)."""
    solo = WorkerPool(size=1)
    try:
        first = solo.layers
        assert first and "seccomp" in first
        solo._retire(solo._workers[0])        # what a replacement does before the new one starts
        assert solo._workers == [] and solo.layers == first
    finally:
        solo.close()


def test_the_run_of_a_killed_worker_does_not_outlive_it(pool):
    zygote = pool._workers[0]
    thread, box = _run_in_thread(pool, BUSY)
    child = _busy_child(zygote.pid)
    os.killpg(zygote.pid, signal.SIGKILL)
    thread.join(20)
    # PR_SET_PDEATHSIG: the orphaned run is killed with its worker
    _wait_for(lambda: not os.path.exists(f"/proc/{child}") or _is_zombie(child))


def _is_zombie(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def test_workers_are_recycled_after_max_requests():
    with WorkerPool(size=1, max_requests=2) as pool:
        first = pool._workers[0].pid
        for _ in range(2):
            assert pool.run("print(1)\n", trace=False).exit_code == 0
        second = pool._workers[0].pid
        assert second != first
        assert not os.path.exists(f"/proc/{first}") or _is_zombie(first)
        assert pool.run("print(2)\n", trace=False).stdout == "2\n"


def test_workers_are_recycled_after_breaches():
    limits = Limits(cpu_seconds=1, wall_seconds=30)
    with WorkerPool(size=1, limits=limits, max_breaches=1) as pool:
        first = pool._workers[0].pid
        assert pool.run("import os\n", trace=False).error["kind"] == "refused"   # not a breach
        assert pool._workers[0].pid == first
        assert pool.run("x = [0] * 10 ** 10\n", trace=False).error["kind"] == "limit"
        assert pool._workers[0].pid != first


def test_a_full_pool_answers_busy_instead_of_queueing_forever():
    # the wall limit is far above the CPU limit, so a loaded machine still meets CPU first
    with WorkerPool(size=1, limits=Limits(cpu_seconds=1, wall_seconds=30),
                    queue_timeout=0.2) as pool:
        thread, box = _run_in_thread(pool, BUSY)
        _busy_child(pool._workers[0].pid)
        busy = pool.run("print(1)\n", trace=False)
        thread.join(40)
        assert busy.error["type"] == "ServerBusy"
        assert box["result"].error["limit"] == "cpu_time"


def test_close_stops_every_worker():
    pool = WorkerPool(size=2)
    pids = [w.pid for w in pool._workers]
    pool.close()
    for pid in pids:
        assert not os.path.exists(f"/proc/{pid}") or _is_zombie(pid)


def test_a_worker_that_died_while_idle_is_replaced_before_the_next_run(pool):
    zygote = pool._workers[0]
    os.killpg(zygote.pid, signal.SIGKILL)
    _wait_for(lambda: not zygote.alive())
    result = pool.run("print('fine')\n", trace=False)
    assert (result.stdout, result.error) == ("fine\n", None)
    assert zygote not in pool._workers


def test_a_spare_that_died_while_waiting_is_replaced_by_a_fork(pool):
    assert pool.run("print(1)\n", trace=False).stdout == "1\n"
    pool.ping()                     # answered after the last run was reaped
    zygote = pool._workers[0]
    spare = _wait_for(lambda: _children(zygote.pid))[0]
    os.kill(spare, signal.SIGKILL)
    _wait_for(lambda: _is_zombie(spare))
    result = pool.run("print('forked on demand')\n", trace=False)
    assert (result.stdout, result.error) == ("forked on demand\n", None)
    assert zygote in pool._workers


def test_the_trace_arrives_as_the_bytes_its_child_wrote(pool):
    result = pool.run("import torch\nprint(torch.ones(2) * 3, 'é')\n")
    assert result.trace_json == T.dump(result.trace)   # canonical: `gradstep trace`'s bytes
    assert "trace_json" not in result.to_json()
    assert pool.run("print(1)\n", trace=False).trace_json is None


@pytest.mark.parametrize("raw, kept", [
    (b'{"events":[]}', True),
    (b'{"events":[NaN]}', False),               # JS's JSON.parse refuses NaN: re-encode
    (b'{"events":[]},"result":{}', None),       # more than one value: never spliced
    (b'[1]', None),
    (b'{"text":"\xed\xa0\x80"}', False),       # a surrogate is not UTF-8
])
def test_trace_bytes_are_spliced_only_when_they_are_one_clean_json_object(raw, kept):
    trace, spliced = _decode_trace(raw)
    if kept is None:
        assert (trace, spliced) == (None, None)
    else:
        assert isinstance(trace, dict) and (spliced == raw) is kept and (spliced is None) != kept


def test_the_zygote_cuts_the_trace_out_of_the_childs_result_frame():
    trace = {"events": [{"text": "é"}]}
    error = {"type": "ValueError", "message": "é", "line": 2, "kind": "exception"}
    frame = json.dumps({"exit_code": 1, "error": error, "trace": trace},
                       separators=(",", ":")).encode()
    result, raw = zygote._parse_result(frame)
    assert (result["exit_code"], result["error"]) == (1, error)
    assert raw == json.dumps(trace, separators=(",", ":")).encode()
    assert _decode_trace(raw) == (trace, raw)
    # not what the child writes: decoded whole, as before
    other = json.dumps({"error": None, "exit_code": 0, "trace": trace}).encode()
    assert zygote._parse_result(other) == ({"error": None, "exit_code": 0, "trace": trace}, None)
    # a forged frame with more after the trace: the pool's strict decode drops the trace
    assert _decode_trace(zygote._parse_result(frame[:-1] + b',"result":{}}')[1]) == (None, None)
    assert zygote._parse_result(b'{"exit_code":true,"error":null,"trace":{}}') is None
    assert zygote._parse_result(b'{"exit_code":0,"error":[],"trace":{}}') is None
    # what the child writes now: the canonical trace bytes (UTF-8, newlines) spliced in as is
    canonical = '{"events":[\n{"text":"é"}\n]}'.encode()
    frame = child.result_payload({"exit_code": 1, "error": error, "trace": canonical})
    assert zygote._parse_result(frame) == ({"exit_code": 1, "error": error, "trace": None},
                                           canonical)
    # a head that does not end exactly where the trace begins is not cut
    forged = b'{"exit_code":0,"error":{"a":1,"trace":{}},"trace":{}}'
    assert zygote._parse_result(forged) == (json.loads(forged), None)
