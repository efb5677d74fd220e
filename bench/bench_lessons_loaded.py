"""Every built-in lesson's program, run fresh on a machine kept busy: does any meet a limit?

    python bench/bench_lessons_loaded.py --burn 8        # aim for a load average near 10
    python bench/bench_lessons_loaded.py --burn 8 --rounds 3

The server is `gradstep serve` with its defaults but no caches and no start-up runs
(GRADSTEP_LAYOUT_CACHE_SIZE=0, GRADSTEP_PRECOMPUTE=0), so each request runs the program in
the sandbox, as a first learner on a server without the start-up runs would. `--burn N`
starts N CPU-bound processes first and stops them at the end. Each lesson's program is made
new with a comment on every round. The script prints, per lesson, the outcome of every
round (ok, or the limit that stopped it), the median wall time, and the median CPU time the
server and its sandbox spent on the request (the run, its layout and its answer: what the
request costs whatever the load), with the load average beside it.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_api import ROOT, stop
from bench_classroom import burners, cpu_seconds, start


def main(argv=None) -> int:
    from gradstep.app.services.lessons import builtin_lessons

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--burn", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--root", type=Path, default=ROOT)
    args = parser.parse_args(argv)
    hot = burners(args.burn)
    work = Path(os.environ.get("TMPDIR", "/tmp"))
    proc, base, _ = start(args.root, work / f"lessons-loaded-{os.getpid()}.log",
                          {"GRADSTEP_ACCESS_LOG": "0", "GRADSTEP_PRECOMPUTE": "0",
                           "GRADSTEP_LAYOUT_CACHE_SIZE": "0", "GRADSTEP_RATE_LIMIT": "0"})
    rows, loads, limited = [], [], 0
    try:
        time.sleep(10)          # the burners' load reaches the load average
        with httpx.Client(base_url=base, timeout=120) as client:
            client.get("/readyz")
            for lesson in builtin_lessons():
                outcomes, walls, cpus = [], [], []
                for r in range(args.rounds):
                    code = f"{lesson.program}\n# round {r} {time.time()}\n"
                    t, cpu = time.perf_counter(), cpu_seconds(proc.pid)
                    answer = client.post("/api/run", json={"code": code})
                    walls.append(time.perf_counter() - t)
                    time.sleep(0.2)                   # the forked run is reaped
                    cpus.append(cpu_seconds(proc.pid) - cpu)
                    loads.append(os.getloadavg()[0])
                    error = answer.json()["result"]["error"] if answer.status_code == 200 \
                        else {"limit": f"HTTP {answer.status_code}"}
                    outcome = (error or {}).get("limit") or "ok"
                    limited += outcome != "ok"
                    outcomes.append(outcome)
                rows.append((lesson.id, outcomes, statistics.median(walls),
                             statistics.median(cpus)))
    finally:
        stop(proc)
        for p in hot:
            p.kill()
            p.wait()
    print(f"{args.burn} CPU burners; load average {min(loads):.1f}-{max(loads):.1f} (1 min) "
          f"during the runs; {limited} of {sum(len(r[1]) for r in rows)} runs met a limit")
    print("| lesson | outcomes | median wall s | median CPU s |")
    print("|---|---|---|---|")
    for lesson_id, outcomes, wall, cpu in rows:
        print(f"| {lesson_id} | {', '.join(outcomes)} | {wall:.2f} | {cpu:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
