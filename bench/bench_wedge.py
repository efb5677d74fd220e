"""The program that once wedged a server, and SIGTERM on a busy one, over real HTTP.

    python bench/bench_wedge.py                # 5 rounds
    python bench/bench_wedge.py --rounds 10

Each round starts `gradstep serve` with its defaults (two sandbox workers, at most one per
client; the rate limit lifted), sends the program of
tests/fixtures/server_programs/loop_variable_named_like_the_model.py from 127.0.0.2 and from
127.0.0.3 at once, then an honest program (new to the cache) from 127.0.0.4, and times how
long after the two were sent the honest one is answered. Then two `while True: pass` runs
keep both workers busy, and the server gets SIGTERM (to its own pid, as a supervisor sends
it): the time until it has exited. Prints medians and the machine's load average.
"""
from __future__ import annotations

import argparse
import os
import signal
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_api import ROOT, stop
from bench_fairness import post_run, start_server

WEDGE = (ROOT / "tests" / "fixtures" / "server_programs"
         / "loop_variable_named_like_the_model.py").read_text()
HONEST = "import torch\nx = torch.ones(3, requires_grad=True)\n(x * {k}).sum().backward()\n"
BUSY = "while True:\n    pass\n# {tag}\n"


def one_round(k: int) -> tuple[float, float]:
    proc, base = start_server()
    try:
        started = time.perf_counter()
        wedges = [threading.Thread(target=post_run, args=(base, ip, WEDGE + f"# {k}{ip}\n"))
                  for ip in ("127.0.0.2", "127.0.0.3")]
        for t in wedges:
            t.start()
        status, _ = post_run(base, "127.0.0.4", HONEST.format(k=k + 2))
        answered = time.perf_counter() - started
        assert status == 200, status
        for t in wedges:
            t.join(120)
        busy = [threading.Thread(target=_quietly, args=(base, ip, BUSY.format(tag=k)),
                                 daemon=True) for ip in ("127.0.0.2", "127.0.0.3")]
        for t in busy:
            t.start()
        time.sleep(1.5)
        signalled = time.perf_counter()
        os.kill(proc.pid, signal.SIGTERM)
        proc.wait(120)
        return answered, time.perf_counter() - signalled
    finally:
        if proc.poll() is None:
            stop(proc)


def _quietly(base: str, ip: str, code: str) -> None:
    try:
        post_run(base, ip, code)
    except (OSError, ValueError):
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    honest, sigterm = [], []
    for k in range(args.rounds):
        a, b = one_round(k)
        honest.append(a)
        sigterm.append(b)
        print(f"round {k + 1}: honest run answered {a:.2f} s after the two; "
              f"SIGTERM to exit {b:.2f} s", flush=True)
    print(f"median over {args.rounds}: honest answered {statistics.median(honest):.2f} s, "
          f"SIGTERM to exit {statistics.median(sigterm):.2f} s; load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
