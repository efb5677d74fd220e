"""A real gradstep server for tests: `gradstep serve`'s app under uvicorn on a free loopback
port, in its own process group (so the sandbox workers it forks go with it).

Example:
    with LiveServer(env={"GRADSTEP_POOL_SIZE": "2"}) as server:
        urlopen(server.url + "/healthz")
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    """Start on enter (waiting until it listens), stop on exit; `restart()` keeps the port.

    `cli=True` starts it the way a user does, `gradstep serve`, instead of uvicorn directly.
    The server's stdout and stderr go to a file (`log_text()`), never to an unread pipe.
    """

    def __init__(self, env: dict | None = None, workers: int = 1, start_timeout: float = 60,
                 cli: bool = False):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        # the lessons' start-up runs would compete with what a test measures; tests that
        # want them say GRADSTEP_PRECOMPUTE=1
        self.env = {**os.environ, "GRADSTEP_ACCESS_LOG": "0", "GRADSTEP_PRECOMPUTE": "0",
                    **(env or {})}
        self.workers = workers
        self.start_timeout = start_timeout
        self.cli = cli
        self.proc: subprocess.Popen | None = None
        self.log = tempfile.TemporaryFile()

    def start(self) -> "LiveServer":
        if self.cli:
            cmd = [sys.executable, "-m", "gradstep", "serve", "--host", "127.0.0.1",
                   "--port", str(self.port), "--workers", str(self.workers)]
        else:
            cmd = [sys.executable, "-m", "uvicorn", "--factory", "gradstep.app.main:create_app",
                   "--host", "127.0.0.1", "--port", str(self.port), "--log-level", "warning",
                   "--workers", str(self.workers)]
        # a file, not a pipe: an unread pipe fills up and blocks the server
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=self.env, stdout=self.log,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + self.start_timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError("the server exited: " + self.log_text()[-2000:])
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return self
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"the server did not listen within {self.start_timeout} s:"
                                       f"\n{self.log_text()[-2000:]}") from None
                time.sleep(0.1)

    def log_text(self) -> str:
        """Everything the server has written to stdout and stderr so far."""
        self.log.seek(0)
        return self.log.read().decode("utf-8", "replace")

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def restart(self) -> None:
        self.stop()
        self.start()

    def descendants(self) -> list[int]:
        """Every live process started by the server, at any depth (workers, zygotes, runs)."""
        parent_of = {}
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                if fields[0] != "Z":                      # fields: state, ppid, ...
                    parent_of[int(entry.name)] = int(fields[1])
        found, frontier = [], [self.proc.pid]
        while frontier:
            pid = frontier.pop()
            kids = [p for p, pp in parent_of.items() if pp == pid]
            found += kids
            frontier += kids
        return found

    def __enter__(self) -> "LiveServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
