"""Inside one forked child: lock the process down, then run one program and report.

The order matters: fds are closed and rlimits, Landlock and seccomp applied *before* the
program is even parsed, so a parser bomb or an escape meets the OS walls. Output streams to
the parent while the program runs (plain bytes on its own pipe; stderr and the result are
frames on another), so a run killed at the wall clock keeps what it printed. The layers that
could be applied are probed once in the zygote (`probe_layers`).

Example (what the zygote does per request, in the forked child):
    run_request({"source": "print(1)", "filename": "main.py", "limits": {}, "trace": False},
                fd, stdout_fd, layers)
"""
from __future__ import annotations

import ctypes
import errno
import gc
import json
import linecache
import math
import os
import random
import resource
import signal
import sys
import time
import traceback
import types
import warnings

from gradstep.engine import _events
from gradstep.engine.unsupported import explained
from gradstep.runner import protocol, pyplot
from gradstep.runner.error_origin import error_origin
from gradstep.runner.errors import (LimitExceeded, ProgramTooLarge, SecurityError, _Stops,
                                    end_run, pending_stop, start_run)
from gradstep.runner.guards import Sandbox
from gradstep.runner.limits import Limits
from gradstep.runner.policy import compile_program
from gradstep.runner.suggestions import suggestion

SEED = 0
_FLUSH_BYTES = 8192
_FLUSH_SECONDS = 0.05
_ENGINE_FRAMES = 60         # recursion headroom for engine and runner frames under user code

# Syscalls a program never needs: process creation, exec, network, debugging other processes,
# raising limits, kernel state. A deny-list (not an allow-list) because numpy, BLAS and glibc
# need different syscalls across versions; the research doc (section 4.2) explains the choice.
DENIED_SYSCALLS = """
    execve execveat fork vfork socket socketpair connect bind listen accept accept4 ptrace
    process_vm_readv process_vm_writev kill tkill tgkill mount umount2 unshare setns bpf
    io_uring_setup io_uring_enter personality setrlimit memfd_create userfaultfd
    chroot pivot_root keyctl add_key request_key init_module finit_module delete_module
    reboot swapon swapoff acct perf_event_open fanotify_init open_by_handle_at
    name_to_handle_at setuid setgid setreuid setregid setresuid setresgid
""".split()
CLONE_THREAD = 0x10000
_ORIGINAL_WARN = warnings.warn      # each run wraps this one, never a previous run's wrapper


# ---- the OS layers -------------------------------------------------------------------------

_FILTER = None


def _seccomp_filter():
    """The filter, built once per zygote: resolving the rules costs ~8 ms, loading 0.3 ms."""
    global _FILTER
    if _FILTER is None:
        _FILTER = _build_seccomp_filter()
    return _FILTER


def _build_seccomp_filter():
    import pyseccomp
    filt = pyseccomp.SyscallFilter(defaction=pyseccomp.ALLOW)
    for name in DENIED_SYSCALLS:
        try:
            filt.add_rule(pyseccomp.ERRNO(errno.EPERM), name)
        except (RuntimeError, ValueError, OSError):
            pass            # the syscall does not exist on this architecture
    # glibc's fork() is clone()/clone3(): ENOSYS on clone3 makes glibc fall back to clone,
    # which is refused unless it makes a thread (CLONE_THREAD).
    filt.add_rule(pyseccomp.ERRNO(errno.ENOSYS), "clone3")
    # glibc's getrlimit() is prlimit64(pid, res, NULL, old): only a new limit is refused
    filt.add_rule(pyseccomp.ERRNO(errno.EPERM), "prlimit64", pyseccomp.Arg(2, pyseccomp.NE, 0))
    filt.add_rule(pyseccomp.ERRNO(errno.EPERM), "clone",
                  pyseccomp.Arg(0, pyseccomp.MASKED_EQ, CLONE_THREAD, 0))
    return filt


def _landlock_ruleset():
    import landlock
    return landlock.Ruleset()       # no rules: every handled filesystem access is denied


def probe_layers() -> dict:
    """Which OS layers this host can apply: {"seccomp": bool, "landlock": bool, ...}.

    Tried in a throwaway child, because applying them is irreversible.
    """
    for layer in ("pyseccomp", "landlock"):     # load their libraries before a lock is on
        try:
            __import__(layer)
        except ImportError:
            pass
    try:
        _seccomp_filter()           # built here, in the zygote, and inherited by every child
    except Exception:  # no libseccomp: the probe reports seccomp missing
        pass
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        found = {"rlimits": True, "seccomp": False, "landlock": False, "unprivileged": False}
        try:
            os.close(r)
            try:
                drop_root()
                found["unprivileged"] = os.getuid() != 0
            except OSError:
                pass
            try:
                _landlock_ruleset().apply()
                try:        # a file that surely exists: the standard library's os.py
                    open(os.__file__, "rb").close()
                except PermissionError:
                    found["landlock"] = True
            except Exception:
                pass
            try:
                _seccomp_filter().load()
                found["seccomp"] = _fork_refused()
            except Exception:
                pass
            protocol.write_json(w, protocol.READY, found)
        finally:
            os._exit(0)
    os.close(w)
    reader = protocol.FrameReader(r)
    frames: list = []
    deadline = time.monotonic() + 30
    while not reader.eof and not frames and time.monotonic() < deadline:
        frames = reader.read_available(1.0)
    os.close(r)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    os.waitpid(pid, 0)
    if not frames:
        return {"rlimits": True, "seccomp": False, "landlock": False, "unprivileged": False}
    return json.loads(frames[0][1])


def _fork_refused() -> bool:
    try:
        pid = os.fork()
    except OSError:
        return True
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    return False


def _vm_size_bytes() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


def drop_root() -> None:
    """A worker started as root runs programs as an unprivileged uid (GRADSTEP_SANDBOX_UID,
    default 65534, "nobody"): file permissions then hold even where Landlock is missing, and
    RLIMIT_NPROC applies."""
    if os.getuid() != 0:
        return
    uid = int(os.environ.get("GRADSTEP_SANDBOX_UID", "65534"))
    os.setgroups([])
    os.setgid(uid)
    os.setuid(uid)


RESULT_FD, STDOUT_FD = 3, 4      # where the run's two pipes sit once it is hardened


def harden(limits: Limits, out_fd: int, layers: dict, stdout_fd: int,
           parent: int | None = None) -> tuple[int, int]:
    """Apply every OS layer to this process; returns the (renumbered) result and stdout fds.
    `parent` is the pid of the zygote that forked it: a run whose zygote is gone already
    exits here, before the program starts.

    With GRADSTEP_SANDBOX_OS_LAYERS=none in the zygote (tests of the language layers alone)
    `layers` is all False: no uid change, no Landlock, no seccomp and only the CPU and memory
    rlimits, which are limits rather than walls."""
    os.setpgid(0, 0)
    vm = _vm_size_bytes()
    walls = layers.get("rlimits", True)
    if walls:
        drop_root()
    try:        # die with the zygote, so no run outlives the worker that owns it; set after
        # the uid change, which clears it
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)   # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if parent is not None and os.getppid() != parent:
        # the zygote died before the death signal was asked for (a spare handed its run
        # just before its worker was killed): nobody would ever signal this run, which could
        # then spend its whole CPU limit for nobody
        os._exit(0)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.dup2(out_fd, RESULT_FD)
    os.dup2(stdout_fd, STDOUT_FD)
    os.closerange(STDOUT_FD + 1, 1 << 16)
    cpu = max(1, math.ceil(limits.cpu_seconds))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    if vm:
        mem = vm + limits.memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
    if walls:
        resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        resource.setrlimit(resource.RLIMIT_NOFILE, (8, 8))
    if walls and os.getuid() != 0:   # NPROC is ignored for root; as nobody it refuses forks
        resource.setrlimit(resource.RLIMIT_NPROC, (0, 0))
    if layers.get("landlock"):
        _landlock_ruleset().apply()
    if layers.get("seccomp"):
        _seccomp_filter().load()
    os.closerange(STDOUT_FD + 1, 1 << 16)   # the Landlock ruleset fd stays open after
    return RESULT_FD, STDOUT_FD                # restrict_self


# ---- running the program -------------------------------------------------------------------

class _Output:
    """print() and warnings go here: counted against the limit, streamed to the parent.

    Output goes as plain bytes on its own pipe, never as a frame on the result pipe: the
    parent takes whatever arrives there as the program's output, so no frame a program could
    write there says what its output was (docs/sandbox.md, "The answer is untrusted")."""

    def __init__(self, fd: int, limits: Limits, recorder, stdout_fd: int):
        self.fd, self.limit, self.recorder = fd, limits.stdout_bytes, recorder
        self.stdout_fd = stdout_fd
        self.used = 0
        self.pending: list = []
        self.pending_bytes = 0
        self.last_flush = time.monotonic()

    def stdout(self, text: str):
        data = text.encode("utf-8", "surrogateescape")
        if self.used + len(data) > self.limit:
            room = self.limit - self.used
            data = data[:max(0, room)]
            self._add(protocol.STDOUT, data)
            self.used = self.limit
            if self.recorder is not None and data:
                self.recorder.stdout(data.decode("utf-8", "ignore"))
            raise LimitExceeded("stdout", f"stdout limit exceeded: the program printed more "
                                          f"than {self.limit} bytes")
        self.used += len(data)
        if self.recorder is not None:
            self.recorder.stdout(text)
        self._add(protocol.STDOUT, data)

    def stderr(self, text: str):
        self._add(protocol.STDERR, text.encode("utf-8", "replace")[:self.limit])

    def _add(self, kind, data):
        if self.pending and self.pending[-1][0] == kind:
            self.pending[-1][1].append(data)
        else:
            self.pending.append((kind, [data]))
        self.pending_bytes += len(data)
        if (self.pending_bytes > _FLUSH_BYTES
                or time.monotonic() - self.last_flush > _FLUSH_SECONDS):
            self.flush()

    def flush(self):
        for kind, parts in self.pending:
            if kind == protocol.STDOUT:
                _write_all(self.stdout_fd, b"".join(parts))
            else:
                protocol.write_frame(self.fd, kind, b"".join(parts))
        self.pending, self.pending_bytes = [], 0
        self.last_flush = time.monotonic()


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _user_line(tb, filename: str):
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _user_frames_only(te: traceback.TracebackException, filename: str):
    """Show only the program's own frames, as if torch were the user's library.

    Iterative over the cause/context chain, which a program can make arbitrarily long.
    """
    todo, seen = [te], set()
    while todo:
        te = todo.pop()
        if te is None or id(te) in seen:
            continue
        seen.add(id(te))
        te.stack = traceback.StackSummary.from_list(
            [f for f in te.stack if f.filename == filename])
        todo += [te.__cause__, te.__context__]


def format_exception(exc: BaseException, filename: str) -> str:
    te = traceback.TracebackException(type(exc), exc, exc.__traceback__, compact=True)
    _user_frames_only(te, filename)
    return "".join(te.format())


MESSAGE_CAP = 64 * 1024     # as runner.answer.MESSAGE_CAP: a longer message is a limit


def _message(exc: BaseException, limits: Limits):
    """str(exc) without paths of the server's install, or the error (a dict) when getting
    it broke a limit: a message longer than MESSAGE_CAP, a __str__ that recurses."""
    try:
        message = str(exc)
    except RecursionError:
        return {"type": "RecursionError", "kind": "limit", "limit": "recursion_depth",
                "message": f"maximum recursion depth exceeded while getting the str of a "
                           f"{type(exc).__name__} (recursion depth limit "
                           f"{limits.recursion_depth})"}
    except Exception as e:  # Python prints "<exception str() failed>"
        message = f"<exception str() failed: {type(e).__name__}>"
    if len(message) > MESSAGE_CAP:
        return {"type": "LimitExceeded", "kind": "limit", "limit": "stdout",
                "message": f"the {type(exc).__name__} raised has a message of "
                           f"{len(message)} characters, over the {MESSAGE_CAP} a message may "
                           f"have: {message[:200]}..."}
    return _without_install_paths(message)


_INSTALL_PATHS = tuple(sorted({p for p in (sys.prefix, sys.base_prefix, sys.exec_prefix,
                                           os.path.dirname(os.path.dirname(__file__)))
                               if len(p) > 1}, key=len, reverse=True))


def _without_install_paths(message: str) -> str:
    """A learner never needs where the server is installed (an OS error names a file)."""
    for path in _INSTALL_PATHS:
        if path in message:
            message = message.replace(path, "...")
    return message


def _classify(exc: BaseException, filename: str, limits: Limits) -> dict:
    """The RunResult error dict for how the program ended."""
    line = getattr(exc, "lineno", None) if isinstance(exc, SyntaxError) else None
    line = line or getattr(exc, "line", None) or _user_line(exc.__traceback__, filename)
    type_name, kind, limit = type(exc).__name__, "exception", None
    message = _message(exc, limits)
    if isinstance(message, dict):       # the message itself broke a limit: gradstep's stop
        error = {**message, "line": line, "origin": "gradstep"}
        if line and not error["message"].startswith("line "):
            error["message"] = f"line {line}: {error['message']}"
        return error
    origin = error_origin(exc, filename)
    if isinstance(exc, LimitExceeded):
        kind, limit = "limit", exc.limit
    elif isinstance(exc, (SecurityError, ProgramTooLarge)):
        kind = "refused"
    elif isinstance(exc, MemoryError):      # only RLIMIT_AS makes these in practice
        type_name, kind, limit = "LimitExceeded", "limit", "memory"
        message = f"memory limit exceeded ({limits.memory_mb} MB)"
    elif isinstance(exc, RecursionError):
        kind, limit = "limit", "recursion_depth"
        message = f"{message} (recursion depth limit {limits.recursion_depth})"
    elif (better := explained(exc)):        # x.stft: PyTorch has it, gradstep does not
        message = better
        origin = "gradstep"
    if kind != "exception" and line and not message.startswith("line "):
        message = f"line {line}: {message}"
    error = {"type": type_name, "message": message, "line": line, "kind": kind,
             "origin": "gradstep" if kind != "exception" else origin}
    if limit:
        error["limit"] = limit
    return error


def _exception_text(exc, error, filename) -> str:
    """The stderr Python would print: a traceback of the user's frames, `Type: message`."""
    if isinstance(exc, SyntaxError):
        return "".join(traceback.format_exception_only(type(exc), exc))
    last = f"{error['type']}: {error['message']}"
    if _user_line(exc.__traceback__, filename) is None:
        # refused while compiling, or stopped before the first line ran: no frames to show
        if not error["line"]:
            return last + "\n"
        src = linecache.getline(filename, error["line"]).strip()
        return f'  File "{filename}", line {error["line"]}\n    {src}\n{last}\n'
    lines = format_exception(exc, filename).rstrip("\n").split("\n")
    if error["kind"] in ("refused", "limit") or explained(exc):   # the message was rewritten
        lines[-1] = last
    elif (name := suggestion(exc)) is not None:
        # Python 3.11's own display adds it; traceback's formatting does not (suggestions.py)
        lines[-1] += f". Did you mean: '{name}'?"
    return "\n".join(lines) + "\n"


class _LimitWatch:
    """Engine listener that enforces graph and tensor limits, then forwards to the recorder.

    Forwarding binds the recorder's methods directly onto the instance, so events this class
    does not check cost nothing extra. The recorder rebinds them (`follow`) when it swaps in
    its light methods for the summarised middle of a loop, and back.
    """

    def __init__(self, limits: Limits, recorder):
        self.max_nodes, self.max_numel = limits.max_graph_nodes, limits.max_tensor_elements
        self.nodes = 0
        self.rec = recorder
        self._op = self._tensor = None
        if recorder is None:
            for name in _FORWARDED:
                setattr(self, name, _noop)
            self.copies = False    # nobody reads the copies (NOTE [listener copies])
        else:
            self.follow(recorder)
            recorder.forwarded(self)    # its on_op is called from this class's

    def follow(self, target, copies: bool = True) -> None:
        """Forward every event to `target`'s methods from now on; `copies` as the
        engine's Listener says (NOTE [listener copies])."""
        for name in _FORWARDED:
            setattr(self, name, getattr(target, name))
        # the recorder's own on_op is looked up at each op: it puts another on its instance
        # while a forward-mode level is open (runner/recorder_tangents.py)
        self._op = None if target is self.rec else target.on_op
        self._tensor = target.on_tensor
        self.copies = copies

    def _numel(self, tensor, what):
        data = getattr(tensor, "_data", None)
        size = getattr(data, "size", 0)
        if size > self.max_numel:
            raise LimitExceeded("tensor_elements", f"{what} made a tensor of {size} elements; "
                                                   f"the limit is {self.max_numel}")

    def on_op(self, op_name, inputs, output, node):
        if _Stops.first is not None:    # a stop the program swallowed ends it at its next op
            raise _Stops.first
        if node is not None:
            self.nodes += 1
            if self.nodes > self.max_nodes:
                raise LimitExceeded("graph_nodes", f"graph nodes limit exceeded: the program "
                                                   f"recorded more than {self.max_nodes} "
                                                   f"grad_fn nodes")
        self._numel(output, op_name)
        op = self._op
        if op is not None:
            op(op_name, inputs, output, node)
        elif self.rec is not None:
            self.rec.on_op(op_name, inputs, output, node)

    def on_tensor(self, tensor, how):
        self._numel(tensor, how)
        made = self._tensor
        if made is not None:
            made(tensor, how)


# the events _LimitWatch forwards without a look of its own
_FORWARDED = tuple(name for name in dir(_events.Listener)
                   if name.startswith("on_") and name not in ("on_op", "on_tensor"))


def _noop(*args, **kwargs):
    return None


def _install_warnings(filename: str, out: _Output, recorder):
    """Print warnings as Python does (`file:line: Category: msg` + the source line), placed
    on the innermost frame of the user's program, as PyTorch's C++ warnings are."""
    original = _ORIGINAL_WARN

    def warn(message, category=None, stacklevel=1, source=None):
        frame: types.FrameType | None = sys._getframe(1)
        level = 1
        while frame is not None and frame.f_code.co_filename != filename:
            frame, level = frame.f_back, level + 1
        if frame is None:
            level = stacklevel
        return original(message, category, level + 1, source)

    shown = set()

    def show(message, category, fname, lineno, file=None, line=None):
        # Python's "default" action shows a warning once per location, but any filter change
        # (a catch_warnings() anywhere, e.g. in the recorder) clears that memory; keep our own.
        key = (fname, lineno, category, str(message))
        if key in shown:
            return
        shown.add(key)
        out.stderr(warnings.formatwarning(message, category, fname, lineno, line))
        if recorder is not None:
            recorder.warning(category.__name__, str(message),
                             lineno if fname == filename else None)

    warnings.warn = warn
    warnings.showwarning = show
    # numpy's floating-point warnings raised inside the engine ("divide by zero encountered
    # in divide") have no PyTorch counterpart; the same warning from the user's own numpy
    # code is still shown, as Python would.
    warnings.filterwarnings("ignore", message=".* encountered in ", category=RuntimeWarning,
                            module=r"engine(\.|$)")


def _arm_timers(limits: Limits):
    def on_cpu(signum, frame):
        signal.signal(signal.SIGXCPU, signal.SIG_DFL)
        raise LimitExceeded("cpu_time", limits.cpu_message(time.process_time()))

    def on_wall(signum, frame):
        raise LimitExceeded("wall_time", limits.wall_message(time.process_time()))

    signal.signal(signal.SIGXCPU, on_cpu)
    signal.signal(signal.SIGALRM, on_wall)
    signal.setitimer(signal.ITIMER_REAL, limits.wall_seconds)


def _disarm_timers():
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, signal.SIG_IGN)
    signal.signal(signal.SIGXCPU, signal.SIG_DFL)


def _seed():
    random.seed(SEED)
    import numpy as np
    np.random.seed(SEED)
    from gradstep import engine
    from gradstep.engine import messages
    messages.forget_warnings()  # a run is a fresh process to its program: warn-once warns again
    seed = getattr(engine, "manual_seed", None)
    if seed is not None:
        seed(SEED)


def execute(request: dict, out_fd: int, stdout_fd: int, exiting: bool = False) -> dict:
    """Run the request's program in this (already hardened) process; returns the result
    sent to the parent: {"exit_code", "error", "trace"}, the trace as its canonical bytes
    (runner.trace.dump) or None. Output went out on `stdout_fd`, stderr as frames on
    `out_fd`. `exiting`: the process exits
    once the result is sent (a forked child, not the zygote's warm-up)."""
    limits = Limits.from_dict(request.get("limits") or {})
    source, filename = request["source"], request.get("filename") or "main.py"
    recorder = None
    if request.get("trace"):
        from gradstep.runner.recorder import Recorder
        recorder = Recorder(source, filename, {"max_events": limits.max_trace_events,
                                               "max_bytes": limits.max_trace_bytes})
    out = _Output(out_fd, limits, recorder, stdout_fd)
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    _install_warnings(filename, out, recorder)
    Sandbox.current_max_elements = limits.max_tensor_elements
    error, exc = None, None
    start_run()
    try:
        code = compile_program(source, filename, limits.source_bytes)
        namespace = Sandbox(print_fn=out.stdout).globals()
        pyplot.begin()
        _seed()
        _events.set_listener(_LimitWatch(limits, recorder))
        sys.setrecursionlimit(limits.recursion_depth + _ENGINE_FRAMES)
        _arm_timers(limits)
        try:
            exec(code, namespace)
        finally:
            _disarm_timers()
    except BaseException as e:  # every way a program can end is reported
        _disarm_timers()
        exc = e
    finally:
        _events.set_listener(None)
        sys.setrecursionlimit(1000)
    stop = pending_stop()
    if stop is not None and exc is not stop:
        # the program swallowed a stop (`return` in `finally`, an `__exit__` returning True)
        # and ended some other way: the run ends with the stop, as if nothing had caught it
        exc = stop
    end_run()
    if exiting:
        # The program is over and what is left allocates only the report: a collection
        # would only scan the trace's tens of thousands of new dicts (runner.trace_build's
        # gc_paused says why that is wasted).
        gc.disable()
    if exc is not None:
        error = _classify(exc, filename, limits)
        try:
            text = _exception_text(exc, error, filename)
            if len(text) > MESSAGE_CAP:
                raise ValueError("shown as the error says")
            out.stderr(_without_install_paths(text))
        except Exception:   # a hostile __str__ must not stop the report
            out.stderr(f"{error['type']}: {error['message']}\n")
    try:
        out.flush()
    except OSError:
        pass
    exit_code = 1 if error else 0
    trace = None
    if recorder is not None:
        try:
            if error:
                recorder.error(error["type"], error["message"], error["line"], error["kind"],
                               exc=exc, origin=error["origin"])
            recorder.plotted(pyplot.state.figures)
            trace = recorder.dump(recorder.finish(exit_code))
        except Exception as e:  # e.g. MemoryError left it half-written
            out.stderr(f"gradstep: the trace could not be finished ({type(e).__name__})\n")
            out.flush()
    return {"exit_code": exit_code, "error": error, "trace": trace}


def result_payload(result: dict) -> bytes:
    """The RESULT frame's JSON, `{"exit_code":…,"error":…,"trace":…}`: the head in ASCII,
    then the trace's bytes as execute() made them, not encoded again (the recorder encoded
    its events once, to size them; runner.zygote cuts the trace out without decoding it).

        >>> result_payload({"exit_code": 0, "error": None, "trace": b'{"events":[]}'})
        b'{"exit_code":0,"error":null,"trace":{"events":[]}}'
    """
    head = json.dumps({"exit_code": result["exit_code"], "error": result["error"]},
                      separators=(",", ":")).encode("ascii")
    trace = result["trace"] if result["trace"] is not None else b"null"
    return head[:-1] + b',"trace":' + trace + b"}"


def run_request(request: dict, out_fd: int, stdout_fd: int, layers: dict,
                parent: int | None = None) -> None:
    """Entry point of the forked child: harden, execute, send the result, exit. `parent`:
    the zygote's pid (see harden)."""
    status = 0
    try:
        limits = Limits.from_dict(request.get("limits") or {})
        out_fd, stdout_fd = harden(limits, out_fd, layers, stdout_fd, parent)
        result = execute(request, out_fd, stdout_fd, exiting=True)
        protocol.write_frame(out_fd, protocol.RESULT, result_payload(result))
    except BaseException:  # the parent reports a crash from the status
        status = 70
    finally:
        os._exit(status)
