"""Connections that trickle a request body a byte every few seconds, against `gradstep serve`:
how long the server keeps them, and whether an honest run is answered meanwhile.

    python bench/bench_slow_clients.py                    # 200 connections, 20 s
    python bench/bench_slow_clients.py --connections 400 --root ../before

Each connection sends a complete head for a 1000-byte body, then one byte of the body every
`--every` seconds. The script records when the server closed each one, runs one honest
program a second from another connection, and after `--seconds` prints one line per figure.
"""
from __future__ import annotations

import argparse
import selectors
import socket
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_api import ROOT, stop
from bench_fairness import post_run, start_server

HEAD = (b"POST /api/run HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
        b"Content-Length: 1000\r\n\r\n")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--connections", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--every", type=float, default=2.0, help="seconds between body bytes")
    parser.add_argument("--root", type=Path, default=ROOT, help="serve this checkout instead")
    args = parser.parse_args(argv)
    proc, base = start_server(args.root)
    port = int(base.rsplit(":", 1)[1])
    sel, opened, closed, honest = selectors.DefaultSelector(), {}, {}, []
    try:
        for _ in range(args.connections):
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(HEAD + b"{")
            s.setblocking(False)
            sel.register(s, selectors.EVENT_READ)
            opened[s] = time.monotonic()
        started = next_byte = next_run = time.monotonic()
        while time.monotonic() - started < args.seconds:
            for key, _ in sel.select(timeout=0.1):       # an answer or a close: it is over
                sel.unregister(key.fileobj)
                closed[key.fileobj] = time.monotonic() - opened[key.fileobj]
            now = time.monotonic()
            if now >= next_byte:
                for s in [s for s in opened if s not in closed]:
                    try:
                        s.send(b" ")
                    except OSError:
                        pass
                next_byte = now + args.every
            if now >= next_run:
                t = time.perf_counter()
                status, _ = post_run(base, "127.0.0.1", f"print({len(honest)})\n")
                honest.append((status, time.perf_counter() - t))
                next_run = now + 1.0
    finally:
        for s in opened:
            s.close()
        stop(proc)
    ended = sorted(closed.values())
    print(f"{len(ended)} of {args.connections} trickling connections ended by the server "
          f"within {args.seconds:g} s" + (f", after a median {statistics.median(ended):.1f} s "
                                           f"(last {ended[-1]:.1f} s)" if ended else ""))
    answered = [d for status, d in honest if status == 200]
    print(f"honest runs meanwhile: {len(answered)} of {len(honest)} answered"
          + (f", median {statistics.median(answered) * 1000:.0f} ms" if answered else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
