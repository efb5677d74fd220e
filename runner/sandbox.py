"""Run untrusted programs in worker processes: `run_program`, `WorkerPool`, `RunResult`.

Be honest about what holds. The in-process layers (the AST policy, guarded attributes, module
proxies, safe builtins) give clear errors and stop the known escape routes, but CPython does
not support in-interpreter sandboxing as a security boundary. The real walls are the process
boundary and the OS: every run is a fresh child forked from a warm zygote, with rlimits (CPU,
address space, file size 0, few fds), an empty Landlock ruleset (no filesystem), a seccomp
filter (no exec, fork, sockets, ptrace, kill), no inherited fds, an empty environment, and a
wall clock enforced with SIGKILL of its process group. For a public deployment, run the
workers in a container too (non-root uid, read-only root, no network, pids and memory caps);
docs/sandbox.md lists each layer, what it stops and what it costs.

Example:
    >>> result = run_program("import torch\\nprint(torch.ones(2) * 3)\\n", trace=False)
    >>> result.stdout, result.exit_code
    ('tensor([3., 3.])\\n', 0)
"""
from __future__ import annotations

import collections
import copy
import json
import logging
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, fields

from gradstep.runner import protocol
from gradstep.runner.answer import InvalidAnswer
from gradstep.runner.answer import check as check_answer
from gradstep.runner.limits import Limits
from gradstep.runner.policy import check_source

log = logging.getLogger("gradstep.sandbox")

START_TIMEOUT = 60.0            # a cold zygote imports numpy and the engine
RESPONSE_GRACE = 10.0           # beyond the wall limit, before the zygote itself is presumed hung
_ZYGOTE = f"{__package__}.zygote"    # started with -m: gradstep.runner.zygote


@dataclass
class RunResult:
    """What a program did: its output, how it ended, and its trace (architecture.md §2).

    `trace_json`, when set, is `trace` as UTF-8 JSON exactly as the sandbox wrote it (one
    JSON value, decoded strictly once to give `trace`), so a server can put it into its
    answer without encoding the trace again. It is not part of `to_json()`.
    """

    stdout: str
    stderr: str
    exit_code: int
    error: dict | None = None
    trace: dict | None = None
    duration_ms: float = 0.0
    trace_json: bytes | None = field(default=None, repr=False, compare=False)

    def to_json(self) -> dict:
        """A JSON-able dict of every field but `trace_json`."""
        return {f.name: copy.deepcopy(getattr(self, f.name)) for f in fields(self)
                if f.name != "trace_json"}


class WorkerDied(RuntimeError):
    """The zygote stopped answering; the pool replaces it."""


class SandboxUnavailable(RuntimeError):
    """A required OS layer is missing and GRADSTEP_SANDBOX_STRICT asks to fail closed."""


def _import_roots() -> str:
    """The sys.path entry that makes `gradstep` importable as this process sees it (the
    folder holding the installed package, or the checkout), and nothing beside it."""
    import gradstep
    return os.path.dirname(os.path.dirname(os.path.abspath(gradstep.__file__)))


def _zygote_env() -> dict:
    # An empty environment: no secrets reach the worker. The hash seed is fixed so that the
    # same program prints the same set order and gives the same trace bytes.
    env = {"PATH": os.defpath, "PYTHONPATH": _import_roots(), "PYTHONHASHSEED": "0",
           "PYTHONDONTWRITEBYTECODE": "1", "PYTHONIOENCODING": "utf-8", "LANG": "C.UTF-8",
           "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    for name in ("GRADSTEP_SANDBOX_UID", "GRADSTEP_SANDBOX_OS_LAYERS"):  # the worker's own
        if os.environ.get(name):
            env[name] = os.environ[name]
    return env


def required_layers() -> set[str]:
    """OS layers the operator insists on: GRADSTEP_SANDBOX_STRICT=1 means seccomp+landlock,
    or a comma list such as "seccomp"."""
    raw = os.environ.get("GRADSTEP_SANDBOX_STRICT", "").strip().lower()
    if raw in ("", "0", "no", "false"):
        return set()
    if raw in ("1", "yes", "true"):
        return {"seccomp", "landlock"}
    return {part.strip() for part in raw.split(",") if part.strip()}


def check_layers(layers: dict) -> list[str]:
    """The OS layers missing from `layers`; raises SandboxUnavailable if one is required
    (GRADSTEP_SANDBOX_STRICT), else logs a loud warning and lets the runner go on."""
    missing = sorted(layer for layer in ("seccomp", "landlock") if not layers.get(layer))
    if not missing:
        return []
    if os.environ.get("GRADSTEP_SANDBOX_OS_LAYERS") == "none" and required_layers():
        raise SandboxUnavailable("GRADSTEP_SANDBOX_OS_LAYERS=none switches the OS layers off, "
                                 "and GRADSTEP_SANDBOX_STRICT requires them")
    required = required_layers() & set(missing)
    if required:
        raise SandboxUnavailable(f"sandbox layers unavailable: {', '.join(sorted(required))} "
                                 f"(GRADSTEP_SANDBOX_STRICT)")
    log.warning("gradstep sandbox: running WITHOUT %s (rlimits and process isolation still "
                "apply; set GRADSTEP_SANDBOX_STRICT=1 to refuse)", " and ".join(missing))
    return missing


class Zygote:
    """One warm fork server process, used by one thread at a time."""

    def __init__(self):
        self.cwd = tempfile.mkdtemp(prefix="gradstep-")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", _ZYGOTE], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=None, cwd=self.cwd, env=_zygote_env(),
            start_new_session=True, close_fds=True)
        self.reader = protocol.FrameReader(self.proc.stdout.fileno())
        self._pending: collections.deque = collections.deque()   # frames read, not yet used
        self.requests = 0
        self.breaches = 0
        _, ready = self._wait(protocol.READY, time.monotonic() + START_TIMEOUT)
        self.layers = {k: v for k, v in json.loads(ready).items() if k != "pid"}
        try:
            check_layers(self.layers)
        except SandboxUnavailable:
            self.close()
            raise

    @property
    def pid(self) -> int:
        return self.proc.pid

    def _wait(self, kinds: bytes | tuple, deadline: float) -> tuple[bytes, bytes]:
        """The next frame of one of `kinds` (others are skipped); WorkerDied if none comes
        by the `deadline` (time.monotonic())."""
        while True:
            while not self._pending:
                remaining = deadline - time.monotonic()
                if remaining <= 0 or self.reader.eof:
                    self.close()
                    raise WorkerDied("the sandbox worker stopped answering" if remaining <= 0
                                     else "the sandbox worker exited")
                self._pending.extend(self.reader.read_available(remaining))
            got, payload = self._pending.popleft()
            if got in kinds:
                return got, payload

    def _send(self, kind: bytes, payload: bytes) -> None:
        try:
            protocol.write_frame(self.proc.stdin.fileno(), kind, payload)
        except (BrokenPipeError, OSError, ValueError):
            self.close()
            raise WorkerDied("the sandbox worker exited") from None

    def run(self, source: str, filename: str, limits: Limits, trace: bool) -> RunResult:
        request = {"source": source, "filename": filename, "limits": limits.to_dict(),
                   "trace": bool(trace)}
        self.requests += 1
        self._send(protocol.REQUEST, json.dumps(request).encode("utf-8", "surrogatepass"))
        deadline = time.monotonic() + limits.wall_seconds + RESPONSE_GRACE
        trace_json = None
        kind, payload = self._wait((protocol.TRACE, protocol.RESULT), deadline)
        if kind == protocol.TRACE:          # the trace comes first, as its child wrote it
            trace_json = payload
            _, payload = self._wait(protocol.RESULT, deadline)
        result = _checked_result(payload, trace_json, source, limits)
        if result.error and result.error.get("kind") in ("limit", "crash"):
            self.breaches += 1
        return result

    def ping(self, timeout: float = 5.0) -> float:
        start = time.perf_counter()
        self._send(protocol.PING, b"ping")
        self._wait(protocol.PING, time.monotonic() + timeout)
        return time.perf_counter() - start

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        """Kill the worker and its run from any thread; the thread waiting on it sees the
        pipe close and ends the run (closing streams here would race with its read)."""
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        shutil.rmtree(self.cwd, ignore_errors=True)


def _checked_result(payload: bytes, trace_json: bytes | None, source: str,
                    limits: Limits) -> RunResult:
    """The RunResult of a zygote's answer, or an InvalidAnswer error if it is not one a run
    can give (runner.answer: everything a worker sends is untrusted)."""
    try:
        answer = json.loads(payload)
        if not isinstance(answer, dict):
            raise InvalidAnswer("not an object")
        trace, raw = answer.get("trace"), None
        if answer.get("trace_frame"):
            trace, raw = _decode_trace(trace_json)
            if trace is None:
                raise InvalidAnswer("the trace is not one JSON object")
        elif trace is not None and not isinstance(trace, dict):
            raise InvalidAnswer("the trace is not an object")
        check_answer(answer, trace, source, limits)
    except (ValueError, RecursionError) as e:   # InvalidAnswer, or JSON that does not parse
        why = str(e)[:200] if isinstance(e, InvalidAnswer) else "it is not JSON"
        log.warning("gradstep sandbox: a run's answer was invalid: %s", why)
        error = {"type": "InvalidAnswer", "message": f"the run's answer was invalid ({why}); "
                 f"nothing it sent was used", "line": None, "kind": "crash",
                 "origin": "gradstep"}
        return RunResult("", f"InvalidAnswer: {error['message']}\n", 1, error, None, 0.0)
    return RunResult(answer["stdout"], answer["stderr"], answer["exit_code"], answer["error"],
                     trace, float(answer.get("duration_ms", 0.0)), raw)


def _decode_trace(raw: bytes | None) -> tuple[dict | None, bytes | None]:
    """(trace, raw) for the trace bytes a worker passed on from its child (untrusted).

    `raw` is kept only if it is exactly one JSON object in strict UTF-8 with no NaN or
    Infinity literals (which browsers' JSON.parse refuses), so it can be spliced into a
    JSON answer as it is. Otherwise the trace is decoded as the pool always did, without
    the bytes (or None if it is not a JSON object at all).
    """
    if raw is None:
        return None, None
    try:
        trace = json.loads(raw.decode("utf-8"), parse_constant=_refuse_constant)
        if isinstance(trace, dict):
            return trace, raw
    except ValueError:          # includes UnicodeDecodeError
        pass
    try:
        trace = json.loads(raw)
    except ValueError:
        return None, None
    return (trace, None) if isinstance(trace, dict) else (None, None)


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def _refusal(source: str, limits: Limits, trace: bool) -> RunResult | None:
    """Refuse an oversized or non-text program before it reaches a worker.

    With trace=True a moderately oversized program still goes to the worker, which refuses it
    without forking and answers with a trace holding the error (the app process never loads
    the engine); only a hugely oversized one is refused here, with no trace.
    """
    from gradstep.runner.errors import LimitExceeded, SecurityError
    if trace and len(source) <= 4 * limits.source_bytes:
        return None
    try:
        check_source(source, limits.source_bytes)
    except LimitExceeded as e:
        error = {"type": "LimitExceeded", "message": str(e), "line": None, "kind": "limit",
                 "limit": e.limit, "origin": "gradstep"}
    except SecurityError as e:
        error = {"type": "SecurityError", "message": str(e), "line": None, "kind": "refused",
                 "origin": "gradstep"}
    else:
        return None
    return RunResult("", f"{error['type']}: {error['message']}\n", 1, error, None, 0.0)


def _worker_crash(message: str) -> RunResult:
    error = {"type": "WorkerCrashed", "message": message, "line": None, "kind": "crash",
             "origin": "gradstep"}
    return RunResult("", f"WorkerCrashed: {message}\n", 1, error, None, 0.0)


class WorkerPool:
    """Bounded, thread-safe pool of warm zygotes; each request runs in its own forked child.

    `size` requests run at once; more wait for a free worker (up to `queue_timeout` s, then a
    clear "busy" error). A zygote is replaced when it dies, after `max_requests` runs, or
    after `max_breaches` runs that hit a limit or crashed.

    Example:
        >>> pool = WorkerPool(size=1)
        >>> pool.run("print(6 * 7)\\n", trace=False).stdout
        '42\\n'
        >>> pool.close()
    """

    def __init__(self, size: int = 2, limits: Limits | None = None, *, max_requests: int = 1000,
                 max_breaches: int = 50, queue_timeout: float = 30.0):
        self.size, self.limits = size, limits or Limits.from_env()
        self.max_requests, self.max_breaches = max_requests, max_breaches
        self.queue_timeout = queue_timeout
        self._idle: queue.Queue = queue.Queue()
        self._lock = threading.Lock()
        self._closed = False
        self._workers: list = []
        try:
            for _ in range(size):
                self._add(Zygote())
        except BaseException:       # do not leave the workers already started running
            self.close()
            raise
        # What the host lets a worker apply does not change while the server runs; kept from
        # the start, it stays true while every worker is being replaced (pages ask for it).
        self._layers = dict(self._workers[0].layers) if self._workers else {}

    @property
    def layers(self) -> dict:
        """The OS layers the workers apply, e.g. {"rlimits": True, "seccomp": True, ...}."""
        return dict(self._layers)

    def _add(self, zygote: Zygote) -> None:
        with self._lock:
            self._workers.append(zygote)
        self._idle.put(zygote)

    def _retire(self, zygote: Zygote) -> None:
        with self._lock:
            if zygote in self._workers:
                self._workers.remove(zygote)
        zygote.close()

    def _acquire(self, timeout: float) -> Zygote:
        if self._closed:
            raise RuntimeError("the worker pool is closed")
        return self._idle.get(timeout=timeout)

    def _replace(self, zygote: Zygote) -> Zygote | None:
        self._retire(zygote)
        try:
            fresh = Zygote()
        except Exception as e:  # keep serving with fewer workers
            log.error("gradstep sandbox: could not start a worker: %s", e)
            return None
        if fresh.layers != self._layers:
            log.warning("gradstep sandbox: a new worker applies %s, the first applied %s",
                        fresh.layers, self._layers)
        with self._lock:
            self._workers.append(fresh)
        return fresh

    def _release(self, zygote: Zygote) -> None:
        if self._closed:
            zygote.close()
            return
        if (not zygote.alive() or zygote.requests >= self.max_requests
                or zygote.breaches >= self.max_breaches):
            zygote = self._replace(zygote)
            if zygote is None:
                return
        self._idle.put(zygote)

    def run(self, source: str, *, filename: str = "main.py", limits: Limits | None = None,
            trace: bool = True, on_start: Callable[[Callable[[], None]], None] | None = None
            ) -> RunResult:
        """Run `source` in a fresh sandboxed child of a free worker.

        `on_start`, if given, is called once a worker is taken, with a function that stops
        this run at once from another thread: it kills the worker, so the run ends as a
        `WorkerCrashed` result and the worker is replaced as any dead one is.
        """
        limits = limits or self.limits
        refused = _refusal(source, limits, trace)
        if refused is not None:
            return refused
        try:
            zygote = self._acquire(self.queue_timeout)
        except queue.Empty:
            error = {"type": "ServerBusy", "message": "too many programs running, retry in a "
                     "few seconds", "line": None, "kind": "limit", "limit": "queue",
                     "origin": "gradstep"}
            return RunResult("", "ServerBusy: too many programs running\n", 1, error, None, 0.0)
        if not zygote.alive():          # died while idle: the user should not pay for it
            zygote = self._replace(zygote)
            if zygote is None:
                return _worker_crash("no sandbox worker could be started")
        if on_start is not None:
            on_start(zygote.kill)
        try:
            return zygote.run(source, filename, limits, trace)
        except WorkerDied as e:
            return _worker_crash(f"{e}; the run was lost and the worker replaced")
        finally:
            self._release(zygote)

    def ping(self, timeout: float = 5.0) -> float:
        """Round trip to a free worker, in seconds (for readiness checks)."""
        zygote = self._acquire(timeout)
        try:
            return zygote.ping(timeout)
        finally:
            self._release(zygote)

    def close(self) -> None:
        self._closed = True
        with self._lock:
            workers, self._workers = list(self._workers), []
        for zygote in workers:
            zygote.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def run_program(source: str, *, filename: str = "main.py", limits: Limits | None = None,
                trace: bool = True) -> RunResult:
    """Run one program in the sandbox without a pool (the CLI): a one-shot worker.

    It uses the same zygote and child code as the server, so `gradstep run` and the web app
    behave the same; the price is starting an interpreter with numpy (a few hundred ms).
    """
    limits = limits or Limits.from_env()
    refused = _refusal(source, limits, trace)
    if refused is not None:
        return refused
    try:
        zygote = Zygote()
    except WorkerDied as e:
        return _worker_crash(str(e))
    try:
        return zygote.run(source, filename, limits, trace)
    except WorkerDied as e:
        return _worker_crash(str(e))
    finally:
        zygote.close()
