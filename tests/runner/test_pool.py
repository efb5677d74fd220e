"""WorkerPool: bounded concurrency, ping, recycling, and surviving killed workers."""
import os
import signal
import threading
import time

from runner import Limits, WorkerPool


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
    child = _wait_for(lambda: _children(zygote_pid))[0]
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
    _wait_for(lambda: _children(zygote.pid))
    os.killpg(zygote.pid, signal.SIGKILL)
    thread.join(20)
    result = box["result"]
    assert result.exit_code == 1
    assert result.error["kind"] == "crash"
    assert "worker" in result.error["message"]
    assert zygote not in pool._workers
    follow = pool.run("print('replaced')\n", trace=False)
    assert (follow.stdout, follow.exit_code) == ("replaced\n", 0)


def test_the_run_of_a_killed_worker_does_not_outlive_it(pool):
    zygote = pool._workers[0]
    thread, box = _run_in_thread(pool, BUSY)
    child = _wait_for(lambda: _children(zygote.pid))[0]
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
        _wait_for(lambda: _children(pool._workers[0].pid))
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
