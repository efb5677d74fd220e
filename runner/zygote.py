"""The zygote: a warm, single-threaded process that forks one hardened child per request.

Started by `runner.sandbox` as `python -m gradstep.runner.zygote` (so the app never forks
itself). It preloads numpy, the engine and every module a run may lazily import (Landlock would
refuse the file reads later), then serves framed requests on stdin and answers on stdout. For
each request it forks a child (`runner.child`), reads its output pipe and result frames
(refusing any frame a run never sends), enforces the wall clock with SIGKILL of the child's
process group, caps what it keeps, and classifies how the child ended from its own observations
(exit status, rusage), never from the child's claims alone.

Two things keep a request's latency down (docs/performance.md, "The server"). The next child
is forked *before* its request arrives (a spare: it warms its copy-on-write pages with a
small program, then waits for the request on a pipe, and hardens itself only once it has
it, exactly as a child forked on demand does). And the zygote answers as soon as the child's
result frame arrives, reaping the child afterwards, with the child's trace bytes passed on
unchanged in a TRACE frame rather than decoded and encoded again.

Example (the protocol, as runner.sandbox speaks it):
    > READY {"seccomp": true, "landlock": true, "rlimits": true}
    < REQUEST {"source": "print(1)", "filename": "main.py", "limits": {...}, "trace": false}
    > RESULT {"stdout": "1\\n", "stderr": "", "exit_code": 0, "error": null, "trace": null}
    With a trace, a TRACE frame (the trace's JSON, as the child wrote it) comes just before
    a RESULT that says {"trace_frame": true} in place of "trace".
"""
from __future__ import annotations

import gc
import json
import os
import select
import signal
import sys
import time

from gradstep.runner import protocol
from gradstep.runner.limits import Limits

WALL_GRACE_SECONDS = 1.0        # the child's own timer fires first and reports the line
RESULT_CAP_BYTES = 64 * 1024 * 1024
_WARMUP = """\
import torch
import numpy as np
import math, random, inspect
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
y.backward()
print(x, x.grad, y, repr(x), "{:.3f} %d".format(1.5) % 3, f"{math.pi:.2f}")
a = np.arange(6.0).reshape(2, 3)
print(a, a.sum(), a.mean(), a.std(), a.max(), a.T @ a, np.linalg.norm(a), repr(a))
print(np.unique(a), np.median(a), np.percentile(a, 50))
"""


def preload() -> None:
    """Import and warm everything a run might need, before any child locks the filesystem."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    import importlib
    import pkgutil
    import tracemalloc  # noqa: F401 - warnings imports it lazily to show allocation sites
    import unicodedata  # noqa: F401 - the parser imports it for non-ASCII identifiers
    import numpy as np
    from gradstep import engine
    for layer in ("pyseccomp", "landlock"):     # their libraries load from disk: load them now
        try:
            importlib.import_module(layer)
        except ImportError:
            pass
    from gradstep.engine import ops
    # engine/ops has no __init__ (a namespace package), so walk_packages does not go into it:
    # its families are listed on their own, so that one only a call imports is loaded too
    modules = [*pkgutil.walk_packages(engine.__path__, engine.__name__ + ".",
                                      onerror=lambda name: None),
               *pkgutil.iter_modules(ops.__path__, ops.__name__ + ".")]
    for info in modules:
        if not info.name.endswith("__main__"):
            try:
                importlib.import_module(info.name)
            except Exception as e:  # one broken module must not stop runs
                print(f"gradstep zygote: cannot preload {info.name}: {e}", file=sys.stderr)
    for name in (f"{__package__}.recorder", f"{__package__}.trace"):
        try:
            importlib.import_module(name)
        except ImportError:
            pass
    np.random.default_rng(0)
    _warm_run()


def _warm_run() -> None:
    """Run a small program through the whole path once, without hardening, to load lazies."""
    from gradstep.runner import child
    r, w = os.pipe()
    try:
        request = {"source": _WARMUP, "filename": "<warmup>", "limits": {}, "trace": True}
        try:
            child.execute(request, w, w)
        except ImportError:       # no recorder yet: warm the untraced path
            child.execute({**request, "trace": False}, w, w)
    finally:
        os.close(w)
        while os.read(r, 1 << 16):
            pass
        os.close(r)


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


class Spare:
    """A child forked ahead of its request; it waits on `request_fd` and answers on `out_fd`.

    Forking (about 1.5 ms) and the first touch of the pages a run writes to (refcounts make
    a forked interpreter copy about a thousand of them, 2-3 ms) then happen between requests.
    Until its request arrives the spare runs only our own code, unhardened like the zygote;
    it applies every OS layer in `child.run_request`, before it parses the program.
    """

    def __init__(self, layers: dict, keep: tuple[int, ...] = (), warm: bool = True):
        request_r, self.request_fd = os.pipe()
        self.out_fd, out_w = os.pipe()
        self.stdout_fd, stdout_w = os.pipe()
        self.used = False
        zygote = os.getpid()
        try:
            self.pid = os.fork()
        except OSError:
            for fd in (request_r, self.request_fd, self.out_fd, out_w, self.stdout_fd,
                       stdout_w):
                os.close(fd)
            raise
        if self.pid == 0:
            try:
                for fd in (self.request_fd, self.out_fd, self.stdout_fd, *keep):
                    os.close(fd)        # keep: the zygote's protocol pipes, never the child's
                _spare_main(request_r, out_w, stdout_w, layers, warm, zygote)  # never returns
            finally:
                os._exit(70)
        os.close(request_r)
        os.close(out_w)
        os.close(stdout_w)
        try:
            os.setpgid(self.pid, self.pid)
        except OSError:
            pass                        # the child already did it

    def hand_over(self, payload: bytes) -> bool:
        """Send the request. True: the caller now owns `pid` and `out_fd`. False: the spare
        had died and has been reaped; fork a child on demand instead."""
        self.used = True
        try:
            protocol.write_frame(self.request_fd, protocol.REQUEST, payload)
        except OSError:
            self.discard()
            return False
        os.close(self.request_fd)
        self.request_fd = -1
        return True

    def discard(self) -> None:
        """Kill and reap a spare that will not run a request (or whose run went wrong)."""
        _kill_group(self.pid)
        for fd in (self.request_fd, self.out_fd, self.stdout_fd):
            if fd >= 0:
                os.close(fd)
        self.request_fd = self.out_fd = self.stdout_fd = -1
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass


def _spare_main(request_fd: int, out_fd: int, stdout_fd: int, layers: dict,
                warm: bool, zygote: int) -> None:
    """The spare's life: warm up, wait for one request (or the zygote's end), run it."""
    from gradstep.runner import child
    try:
        if warm:
            try:
                _warm_run()
            except Exception:  # a cold spare still runs correctly
                pass
        reader = protocol.FrameReader(request_fd)
        request = None
        while request is None and not reader.eof:
            for kind, payload in reader.read_available(None):
                if kind == protocol.REQUEST:
                    request = json.loads(payload)
        os.close(request_fd)
    except BaseException:  # the zygote sees no result and reports a crash
        os._exit(70)
    if request is None:         # the zygote closed the pipe: it is exiting or discarded us
        os._exit(0)
    child.run_request(request, out_fd, stdout_fd, layers, zygote)  # hardens first; never returns


def serve_request(request: dict, layers: dict, spare: Spare | None = None,
                  payload: bytes | None = None):
    """Run `request` in `spare` (or a child forked now) and watch it.

    Returns (answer, trace_bytes, reap): the RunResult fields as a dict, the child's trace
    JSON when it can be passed on unchanged (then `answer` has "trace_frame" instead of
    "trace"), and a function that reaps the child, for the caller to call after answering.
    A spare is used (`spare.used`) unless the request is refused without running.
    """
    from gradstep.runner import child
    limits = Limits.from_dict(request.get("limits") or {})
    start = time.monotonic()
    refused = _refuse_source(request, limits)
    if refused is not None:     # too big or not text: no fork, but a trace with the error
        return refused, None, _nothing
    if spare is not None and spare.hand_over(payload or json.dumps(request).encode()):
        pid, r, sr = spare.pid, spare.out_fd, spare.stdout_fd
    else:
        r, w = os.pipe()
        sr, sw = os.pipe()
        zygote = os.getpid()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            os.close(sr)
            child.run_request(request, w, sw, layers, zygote)       # never returns
        os.close(w)
        os.close(sw)
        try:
            os.setpgid(pid, pid)
        except OSError:
            pass                # the child already did it, or already exited
    try:
        stdout, stderr, result, killed = _collect(pid, r, sr, limits, start)
    finally:
        os.close(sr)
    out = {"stdout": stdout.decode("utf-8", "replace"),
           "stderr": stderr.decode("utf-8", "replace")}
    if result is not None and killed is None:
        # The child sent its result: it is exiting. Answer now; reap it afterwards. (A
        # program that forged a result and kept running is killed here all the same.)
        _kill_group(pid)
        out["duration_ms"] = round((time.monotonic() - start) * 1000, 3)
        answer, trace_bytes = result
        out.update(exit_code=answer["exit_code"], error=answer["error"])
        if trace_bytes is not None:     # the pool decodes it (strictly) and checks it
            out["trace_frame"] = True
        else:
            out["trace"] = answer["trace"]
        return out, trace_bytes, lambda: _reap(pid, r)
    _kill_group(pid)
    _, status, usage = os.wait4(pid, 0)
    os.close(r)
    if killed == "invalid":     # nothing a forging run sent is used, its output included
        out["stdout"] = out["stderr"] = ""
    out["duration_ms"] = round((time.monotonic() - start) * 1000, 3)
    cpu = usage.ru_utime + usage.ru_stime
    # not None: either no result came, or the zygote stopped the child
    error = _classify_exit(status, killed, result and result[0], limits, cpu)
    trace = _fallback_trace(request, out["stdout"], error) if request.get("trace") else None
    out.update(exit_code=1, error=error, trace=trace)
    if out["stderr"] and not out["stderr"].endswith("\n"):
        out["stderr"] += "\n"
    out["stderr"] += f"{error['type']}: {error['message']}\n"
    return out, None, _nothing


def _nothing() -> None:
    pass


def _reap(pid: int, fd: int) -> None:
    if fd >= 0:
        os.close(fd)
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass


def _refuse_source(request: dict, limits: Limits):
    from gradstep.runner.errors import LimitExceeded, SecurityError
    from gradstep.runner.policy import check_source
    try:
        check_source(request["source"], limits.source_bytes)
        return None
    except LimitExceeded as e:
        error = {"type": "LimitExceeded", "message": str(e), "line": None, "kind": "limit",
                 "limit": e.limit}
    except SecurityError as e:
        error = {"type": "SecurityError", "message": str(e), "line": None, "kind": "refused"}
    trace = _fallback_trace(request, "", error) if request.get("trace") else None
    return {"stdout": "", "stderr": f"{error['type']}: {error['message']}\n", "exit_code": 1,
            "error": error, "trace": trace, "duration_ms": 0.0}


def _fallback_trace(request: dict, stdout: str, error: dict):
    """A run killed from outside sent no trace: give the app one with its output and error."""
    try:
        from gradstep.runner.recorder import Recorder
        recorder = Recorder(request["source"], request.get("filename") or "main.py")
        if stdout:
            recorder.stdout(stdout)
        recorder.error(error["type"], error["message"], None, error["kind"])
        return recorder.finish(1)
    except Exception:  # no trace is better than a dead zygote
        return None


def _collect(pid, fd, stdout_fd, limits: Limits, start):
    """Read the run's two pipes until its result frame, the wall clock, or a breach.

    `stdout_fd` carries the program's output as plain bytes; `fd` carries frames, of which
    only STDERR and RESULT are expected. Any other frame, or a frame that does not parse, makes
    the answer "invalid" (an escaped program writing on the pipe); the parent never takes
    the output from a frame."""
    reader = protocol.FrameReader(fd, max_frame=RESULT_CAP_BYTES)
    stdout, stderr = bytearray(), bytearray()
    result, killed = None, None
    stdout_open = True
    deadline = start + limits.wall_seconds + WALL_GRACE_SECONDS
    while not reader.eof:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            killed = "wall_time"
            break
        watched = [fd, stdout_fd] if stdout_open else [fd]
        ready, _, _ = select.select(watched, [], [], min(remaining, 1.0))
        if stdout_fd in ready:
            stdout_open = _read_output(stdout_fd, stdout)
        if fd not in ready:
            if len(stdout) > limits.stdout_bytes:
                del stdout[limits.stdout_bytes:]
                killed = "stdout"
                break
            continue
        try:
            frames = reader.read_available(0)
        except ValueError:
            killed = "result_size"
            break
        for kind, payload in frames:
            if kind == protocol.STDERR and result is None:
                stderr += payload[:max(0, limits.stdout_bytes - len(stderr))]
            elif kind == protocol.RESULT and result is None:
                result = _parse_result(payload)
                if result is None:
                    killed = "invalid"
            else:           # a frame a child never writes, or one after its result
                killed = "invalid"
        if reader.total > RESULT_CAP_BYTES:
            killed = "result_size"
        if killed or result is not None:    # the child's last frame: do not wait for exit
            break
    # what was written before the result frame (or the child's end) is already in the pipe
    while (killed != "wall_time" and stdout_open and len(stdout) <= limits.stdout_bytes
           and select.select([stdout_fd], [], [], 0)[0]):
        stdout_open = _read_output(stdout_fd, stdout)
    if len(stdout) > limits.stdout_bytes and not killed:     # the child's own cap bypassed
        del stdout[limits.stdout_bytes:]
        killed = "stdout"
    if killed:
        _kill_group(pid)
    return bytes(stdout), bytes(stderr), result, killed


def _read_output(fd: int, into: bytearray) -> bool:
    """Append what the output pipe has (one read); False at its end."""
    chunk = os.read(fd, 1 << 16)
    into += chunk
    return bool(chunk)


_HEAD = json.JSONDecoder()


def _parse_result(payload: bytes):
    """The child's result frame as (result, trace bytes), or None if it is not one.

    What child.result_payload writes, `{"exit_code":…,"error":…,"trace":` + trace + `}`
    with the head in ASCII, is read up to the trace and the trace (canonical UTF-8 JSON) is
    cut out as bytes without being decoded here: the pool decodes it strictly, once, before
    anything uses it (and gets None if it is not exactly one JSON object;
    runner.sandbox._decode_trace). Any other frame is decoded whole and its trace re-encoded
    on the way, as before.
    """
    head = _split_result(payload)
    if head is not None:
        return head
    try:
        result = json.loads(payload)
    except ValueError:
        return None
    if not (isinstance(result, dict) and set(result) == {"exit_code", "error", "trace"}
            and type(result.get("exit_code")) is int
            and result["exit_code"] in (0, 1)
            and isinstance(result.get("error"), (dict, type(None)))
            and isinstance(result.get("trace"), (dict, type(None)))):
        return None
    return result, None


def _split_result(payload: bytes):
    # `,"trace":{` cannot occur inside the head's strings (their quotes are escaped): the
    # first one ends the head, which must then decode exactly up to it
    cut = payload.find(b',"trace":{')
    if not (payload.startswith(b'{"exit_code":') and payload.endswith(b"}") and cut > 0
            and payload[:cut].isascii()):
        return None
    text = payload[:cut].decode("ascii")
    try:
        exit_code, i = _HEAD.raw_decode(text, len('{"exit_code":'))
        if not text.startswith(',"error":', i):
            return None
        error, i = _HEAD.raw_decode(text, i + len(',"error":'))
    except ValueError:
        return None
    if (type(exit_code) is not int or exit_code not in (0, 1)
            or not isinstance(error, (dict, type(None))) or i != cut):
        return None
    return {"exit_code": exit_code, "error": error, "trace": None}, payload[cut + 9:-1]


def _limit(limit, message):
    return {"type": "LimitExceeded", "message": message, "line": None, "kind": "limit",
            "limit": limit}


def _crash(message):
    return {"type": "WorkerCrashed", "message": message, "line": None, "kind": "crash"}


def _invalid(why: str) -> dict:
    """The error of a run whose answer cannot be believed (runner.answer checks the rest)."""
    return {"type": "InvalidAnswer", "message": f"the run's answer was invalid ({why}); "
            f"nothing it sent was used", "line": None, "kind": "crash"}


def _classify_exit(status, killed, result, limits: Limits, cpu: float):
    """None when the child's own result stands; else the error the parent observed."""
    if killed == "wall_time":
        return _limit("wall_time", limits.wall_message(cpu))
    if killed == "stdout":
        return _limit("stdout", f"stdout limit exceeded: the program printed more than "
                                f"{limits.stdout_bytes} bytes")
    if killed == "result_size":
        return _crash("the run sent more data than the sandbox accepts")
    if killed == "invalid":
        return _invalid("its frames were not what a run sends")
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig == signal.SIGXCPU or (sig == signal.SIGKILL and cpu >= limits.cpu_seconds):
            return _limit("cpu_time", limits.cpu_message(cpu))
        if sig == signal.SIGXFSZ:
            return _crash("the program tried to write a file (SIGXFSZ)")
        name = signal.Signals(sig).name if sig in signal.Signals._value2member_map_ else sig
        return _crash(f"the program crashed the worker ({name})")
    if result is None:
        return _crash(f"the worker exited without a result (status {os.WEXITSTATUS(status)})")
    return None


def main() -> int:
    """Serve requests until stdin closes. Frames on fd 0/1; nothing else may write to fd 1."""
    req_fd, resp_fd = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(2, 1)           # a stray print in the zygote must not corrupt the protocol
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    preload()
    from gradstep.runner import child
    layers = child.probe_layers()
    if os.environ.get("GRADSTEP_SANDBOX_OS_LAYERS") == "none":
        # tests of the language layers alone: no uid change, Landlock, seccomp or fd/file/
        # process rlimits (child.harden); GRADSTEP_SANDBOX_STRICT refuses such a worker
        layers = dict.fromkeys(layers, False)
    # Everything loaded so far is shared with every child: keep the collector from touching
    # (and so copying) those pages in each fork.
    gc.freeze()
    spare = _new_spare(layers, (req_fd, resp_fd), WARM_SPARES)
    protocol.write_json(resp_fd, protocol.READY, {**layers, "pid": os.getpid()})
    reader = protocol.FrameReader(req_fd)
    try:
        while not reader.eof:
            frames = reader.read_available(None)
            while frames:
                kind, payload = frames.pop(0)
                if kind == protocol.PING:
                    protocol.write_frame(resp_fd, protocol.PING, payload)
                elif kind == protocol.REQUEST:
                    spare = _serve(payload, layers, spare, resp_fd)
                    # A request already waiting (a busy server) gains nothing from a warm-up
                    # it would wait for: the spare then only saves the fork.
                    waiting = bool(frames) or bool(select.select([req_fd], [], [], 0)[0])
                    if spare is None:
                        # The next spare runs someone else's program: it must inherit
                        # nothing of this request (docs/sandbox.md, "A worker holds nothing
                        # of anyone else").
                        del payload
                        gc.collect()
                        spare = _new_spare(layers, (req_fd, resp_fd),
                                           WARM_SPARES and not waiting)
                payload = None
    finally:
        if spare is not None:
            spare.discard()
    return 0


WARM_SPARES = True      # a spare runs _WARMUP before it waits (see Spare)


def _new_spare(layers: dict, keep: tuple[int, ...], warm: bool) -> Spare | None:
    """A spare, or None if it cannot be forked now (the next request then forks its child
    itself, and reports a crash as before if that fails too)."""
    try:
        return Spare(layers, keep=keep, warm=warm)
    except OSError:
        return None


def _serve(payload: bytes, layers: dict, spare: Spare | None, resp_fd: int):
    """Answer one REQUEST frame; returns the spare if this request did not use it."""
    reap = _nothing
    try:
        request = json.loads(payload)
        answer, trace_bytes, reap = serve_request(request, layers, spare, payload)
    except Exception as e:  # report, keep serving
        answer, trace_bytes = {"stdout": "", "stderr": "", "exit_code": 1, "trace": None,
                               "duration_ms": 0.0, "error": _crash(f"sandbox error: {e}")}, None
        if spare is not None and spare.used:
            _kill_group(spare.pid)
            reap = lambda: _reap(spare.pid, -1)     # noqa: E731
    if trace_bytes is not None:
        protocol.write_frame(resp_fd, protocol.TRACE, trace_bytes)
    protocol.write_json(resp_fd, protocol.RESULT, answer)
    reap()
    return None if spare is None or spare.used else spare


if __name__ == "__main__":
    sys.exit(main())
