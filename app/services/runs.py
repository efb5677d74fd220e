"""Run a learner's program in the sandbox pool and answer with its output, trace and layout.

The pool (runner.WorkerPool) does the running; this module adds what a shared server needs:
the program-size check, fair admission to the sandbox slots (FairGate), and a cache of whole
answers (trace, layout and the encoded JSON, kept gzip-compressed and bounded in bytes) by
source hash: runs are deterministic (seeded, canonical traces), so a repeated program, such
as a class running the same example, costs a dictionary lookup. Results cut short by a time
limit are not cached: a quieter server may finish them.

Two more things make a class of forty cheap: the answers of the lessons and examples are
made once at start-up and pinned (`precompute`, never evicted by the byte-bounded cache),
and a program already running for one learner is not run again for another who asks for it
meanwhile: the second waits for the first one's answer.

Example:
    >>> summary({"stdout": "", "stderr": "", "exit_code": 0, "error": None, "duration_ms": 1})
    'ok'
"""
from __future__ import annotations

import asyncio
import functools
import gzip
import itertools
import json
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

import anyio

from gradstep.app.errors import ApiError
from gradstep.app.services.answer_budget import ANSWER_MAX_BYTES, OverBudget, PictureBudget
from gradstep.app.services.cache import LruCache, source_key
from gradstep.app.services.compression import GZIP_LEVEL
from gradstep.app.services.deadline import Overrun, deadline
from gradstep.app.services.dot_process import LayoutTimeout
from gradstep.app.services.fair_gate import FairGate
from gradstep.app.services.layout import GraphTooLarge, layout_trace
from gradstep.app.services.layout_reuse import lay_out_reusing
from gradstep.app.services.stops import RunStops

log = logging.getLogger("gradstep.app")

RESULT_FIELDS = ("stdout", "stderr", "exit_code", "error", "duration_ms")
UNCACHEABLE_LIMITS = {"wall_time", "cpu_time"}
START_UP_CLIENT = "start-up"        # the gate's client for the lessons' and examples' runs
START_UP_ATTEMPTS = 3
START_UP_RETRY_SECONDS = 5.0


@dataclass(frozen=True)
class Answer:
    """One run's answer: its JSON encoded once (off the event loop) and gzip-compressed.

    The cache keeps only `gz` and the outcome (`for_cache()`): answers are JSON of repeated
    keys and numbers, which gzip shrinks five- to tenfold, and most browsers take the
    compressed bytes as they are. A fresh answer also carries its decoded `data` and its
    `plain` JSON, so the request that ran it pays no decompression.
    """

    gz: bytes
    outcome: str
    timing: str = ""        # the Server-Timing header: where this answer's time went
    fresh: dict | None = field(default=None, repr=False)
    plain: bytes | None = field(default=None, repr=False)

    @property
    def body(self) -> bytes:
        """The answer's JSON, uncompressed."""
        return self.plain if self.plain is not None else gzip.decompress(self.gz)

    @property
    def data(self) -> dict:
        return self.fresh if self.fresh is not None else json.loads(self.body)

    def for_cache(self) -> "Answer":
        return Answer(self.gz, self.outcome)

    @staticmethod
    def weight(answer: "Answer") -> int:
        """Bytes the cache is charged for an answer."""
        return len(answer.gz) + len(answer.outcome)


@dataclass
class RunService:
    """The pool plus the server-side policy around it; one per web worker process."""

    pool: Any                      # runner.WorkerPool, or anything with .run(source) -> RunResult
    gate: FairGate
    max_program_bytes: int
    runs: LruCache                 # source hash -> Answer
    layout_max_nodes: int | None = None
    dot_runner: Any = None         # DotProcess: big layouts in a child process
    layouts: LruCache | None = None  # graph shape -> layout (services/layout_reuse.py)
    stops: RunStops = field(default_factory=RunStops)
    answer_max_bytes: int = ANSWER_MAX_BYTES   # the trace and the pictures together
    pinned: dict[str, Answer] = field(default_factory=dict)   # lessons, examples: for good
    _inflight: dict[str, asyncio.Future] = field(default_factory=dict)
    _following: set[str] = field(default_factory=set)  # run ids waiting on another's run
    _ids: Iterator[int] = field(default_factory=itertools.count)
    layout_timeout: float = 20.0   # seconds for the whole layout of one answer

    def check_size(self, code: str) -> None:
        # surrogatepass: a lone surrogate (JSON allows "\ud800") is the sandbox's to refuse
        size = len(code.encode("utf-8", "surrogatepass"))
        if size > self.max_program_bytes:
            raise ApiError(413, "program_too_large", f"The program is {size} bytes; the limit "
                           f"is {self.max_program_bytes} bytes.")

    async def run(self, code: str, client: str = "", run_id: str | None = None,
                  gone: Callable[[], Awaitable[object]] | None = None) -> Answer:
        """Run `code` for `client` (or find its answer in the cache); the answer of POST
        /api/run. The client's key is what its share of the sandbox slots is counted by;
        `run_id` names the run for `stop` (the Stop button) and `progress`. `gone()`, if
        given, returns when the client has gone away: the run is then withdrawn from the
        line, or stopped, so that its slot goes to someone who is still there."""
        if gone is None:
            return await self._run(code, client, run_id)
        run_id = run_id or f"server-{next(self._ids)}"
        outcome: list[Answer | Exception] = []
        left = False
        async with anyio.create_task_group() as group:
            async def watch() -> None:
                nonlocal left
                await gone()
                left = True
                self.stop(run_id)
                group.cancel_scope.cancel()
            group.start_soon(watch)
            try:        # caught here: the task group would wrap it in an ExceptionGroup
                outcome.append(await self._run(code, client, run_id))
            except Exception as exc:    # raised again below, as it was
                outcome.append(exc)
            group.cancel_scope.cancel()
        if left or not outcome:
            raise ApiError(499, "client_gone", "The client went away before the answer; "
                           "its run was stopped.")
        if isinstance(outcome[0], Exception):
            raise outcome[0]
        return outcome[0]

    async def _run(self, code: str, client: str, run_id: str | None) -> Answer:
        self.check_size(code)
        key = source_key(code)
        cached = self.pinned.get(key) or self.runs.get(key)
        if cached is not None:
            return replace(cached, timing='cache;desc="hit"')
        leader = self._inflight.get(key)
        if leader is not None:
            shared = await self._follow(leader, run_id)
            if shared is not None:
                return replace(shared, timing='shared;desc="the same program, run once"')
        run_id = run_id or f"server-{next(self._ids)}"   # a name to stop it by if its client goes
        mine = asyncio.get_running_loop().create_future()
        self._inflight.setdefault(key, mine)
        answer = None
        started = time.perf_counter()
        try:
            async with self.gate.slot(client, run_id):
                if self.stops.was_stopped(run_id):
                    raise_stopped()
                answer = await anyio.to_thread.run_sync(self._run_blocking, code, key,
                                                        started, run_id)
                return answer
        finally:
            self.stops.finished(run_id)
            if self._inflight.get(key) is mine:
                del self._inflight[key]
            mine.set_result(answer)      # None: the followers run it themselves

    async def _follow(self, leader: asyncio.Future, run_id: str | None) -> Answer | None:
        """The answer of the same program's run already under way, or None if it failed."""
        if run_id:
            self._following.add(run_id)
        try:
            return await asyncio.shield(leader)
        finally:
            self._following.discard(run_id or "")

    def progress(self, run_id: str) -> dict:
        """Where the run `run_id` stands: waiting (with its place in line), running, or
        unknown (finished, not yet arrived, or never sent)."""
        place = self.gate.place(run_id)
        if place is not None:
            return {"state": "waiting", "place": place, "waiting": self.gate.waiting}
        if self.stops.running(run_id) or run_id in self._following:
            return {"state": "running", "place": None, "waiting": self.gate.waiting}
        return {"state": "unknown", "place": None, "waiting": self.gate.waiting}

    async def precompute(self, programs: Iterable[tuple[str, str]],
                         closing: asyncio.Event | None = None,
                         attempts: int = START_UP_ATTEMPTS,
                         retry_seconds: float = START_UP_RETRY_SECONDS) -> list[str]:
        """Run each (name, program) once and pin its answer, so that a class opening the
        same lesson costs lookups; returns the names that could not be pinned.

        A run cut by a limit (or a crash) is not an answer to keep: it is tried again up to
        `attempts` times, `retry_seconds` apart (a busy start-up is the usual cause), then
        reported in the log and left to be run on demand. Setting `closing` (the server
        stops) stops the run under way and ends the work."""
        closing = closing or asyncio.Event()
        failed = []
        for name, code in programs:
            if closing.is_set():
                break
            why = await self._pin(code, attempts, retry_seconds, name, closing)
            if why is not None and not closing.is_set():
                failed.append(name)
                log.error("%s could not be run at start-up (%d attempts): %s. It is run "
                          "when a learner opens it instead.", name, attempts, why)
        pinned = len(self.pinned)
        log.info("start-up runs done: %d answers pinned, %d failed", pinned, len(failed))
        return failed

    async def _pin(self, code: str, attempts: int, retry_seconds: float, name: str,
                   closing: asyncio.Event) -> str | None:
        why = "not run"
        for attempt in range(1, attempts + 1):
            try:
                answer = await self.run(code, START_UP_CLIENT, gone=closing.wait)
            except ApiError as exc:
                why = f"{exc.code}: {exc.message}"
            else:
                error = answer.data["result"].get("error") or {}
                if cacheable(error):
                    self.pinned[source_key(code)] = answer.for_cache()
                    return None
                why = f"{error.get('type')}: {error.get('message')}"
            if closing.is_set():
                return why
            if attempt < attempts:
                log.warning("%s: start-up run %d of %d gave no answer to keep (%s); trying "
                            "again in %g s", name, attempt, attempts, why, retry_seconds)
                with anyio.move_on_after(retry_seconds):
                    await closing.wait()
        return why

    def stop(self, run_id: str) -> bool:
        """Stop the run named `run_id` (its worker is killed and replaced); True if it ran."""
        return self.stops.stop(run_id)

    def _run_blocking(self, code: str, key: str, started: float,
                      run_id: str | None = None) -> Answer:
        marks = [("wait", started), ("run", time.perf_counter())]
        if run_id:
            result = self.pool.run(code, on_start=lambda stop: self.stops.started(run_id, stop))
            if self.stops.was_stopped(run_id):
                raise_stopped()
        else:
            result = self.pool.run(code)
        if (result.error or {}).get("limit") == "queue":   # the pool's own queue overflowed
            raise ApiError(503, "busy", "All sandbox workers are busy. Try again shortly.",
                           headers={"Retry-After": "2"})
        marks.append(("layout", time.perf_counter()))
        outcome = {f: getattr(result, f) for f in RESULT_FIELDS}
        trace_json = getattr(result, "trace_json", None)
        budget = PictureBudget(self.answer_max_bytes, len(_dumps(outcome)) + (
            len(trace_json) if trace_json is not None else len(_dumps(result.trace))))
        layout, note = self.layout(result.trace, budget)
        marks.append(("encode", time.perf_counter()))
        data = {"result": outcome, "trace": result.trace, "layout": layout, "layout_note": note}
        if budget.summary() is not None:
            data["layout_budget"] = budget.summary()
        if layout is None and note == self.overrun_note():
            data["layout_timeout"] = self.layout_timeout
        body = encode_answer(data, trace_json)
        marks.append(("gzip", time.perf_counter()))
        gz = gzip.compress(body, GZIP_LEVEL, mtime=0)
        marks.append(("", time.perf_counter()))
        answer = Answer(gz, summary(data["result"]), server_timing(marks), data, body)
        if cacheable(result.error or {}):
            self.runs.put(key, answer.for_cache())
        return answer

    def layout(self, trace: dict | None,
               budget: PictureBudget | None = None) -> tuple[dict | None, str | None]:
        """The layout of a run's trace, or (None, why not); a note also says which
        pictures `budget` (the answer's size, app/services/answer_budget.py) left out."""
        if trace is None:
            return None, "The run produced no trace."
        try:
            with deadline(self.layout_timeout):
                layout = layout_trace(trace, self.layout_max_nodes, self.dot_runner,
                                      lay=functools.partial(lay_out_reusing, cache=self.layouts),
                                      budget=budget)
            return layout, (budget.note() if budget is not None and budget.dropped else None)
        except Overrun:
            log.warning("a layout ran past %g s and was stopped", self.layout_timeout)
            return None, self.overrun_note()
        except (GraphTooLarge, LayoutTimeout, OverBudget) as exc:
            return None, str(exc)
        except Exception:  # a drawing bug must not turn a program's answer into a 500
            log.exception("layout failed")
            return None, "The graph could not be drawn (a server bug, logged)."

    def overrun_note(self) -> str:
        """The layout_note of an answer whose layout was stopped at its deadline."""
        return (f"The graph is not drawn: laying it out took longer than "
                f"{self.layout_timeout:g} s, and the server stopped it. The run's steps and "
                f"output are all here.")


def cacheable(error: dict) -> bool:
    """Whether a run that ended with `error` ({} for none) gives the program's answer: a
    run cut by a time limit or a crash may finish on a quieter server."""
    return error.get("kind") != "crash" and error.get("limit") not in UNCACHEABLE_LIMITS


def raise_stopped() -> None:
    raise ApiError(409, "stopped", "The run was stopped before it finished.")


def server_timing(marks: list[tuple[str, float]]) -> str:
    """A Server-Timing header from (stage, start) marks; the last mark ends the last stage.

    Example:
        >>> server_timing([("run", 1.0), ("layout", 1.0125), ("", 1.015)])
        'run;dur=12.5, layout;dur=2.5'
    """
    return ", ".join(f"{name};dur={(end - start) * 1000:.1f}"
                     for (name, start), (_, end) in zip(marks, marks[1:]))


def _dumps(value: Any) -> bytes:
    text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:      # a lone surrogate (from the program's text) stays escaped
        return json.dumps(value, allow_nan=False, separators=(",", ":")).encode("ascii")


def encode_answer(data: dict, trace_json: bytes | None = None) -> bytes:
    """The answer's JSON. `trace_json` (RunResult.trace_json: the trace as the sandbox wrote
    it, checked to be one JSON object) goes in as it is, instead of encoding `data["trace"]`
    again; decoding gives the same value either way.

    Example:
        >>> encode_answer({"result": {}, "trace": None, "layout": None, "layout_note": "-"},
        ...               b'{"events":[]}')
        b'{"result":{},"trace":{"events":[]},"layout":null,"layout_note":"-"}'
    """
    if trace_json is None:
        return _dumps(data)
    tail = [b',"layout_budget":', _dumps(data["layout_budget"])] if "layout_budget" in data else []
    return b"".join([b'{"result":', _dumps(data["result"]), b',"trace":', trace_json,
                     b',"layout":', _dumps(data["layout"]),
                     b',"layout_note":', _dumps(data["layout_note"]), *tail, b"}"])


def summary(result: dict) -> str:
    """A one-word outcome for the access log: ok, exception, refused, limit or crash."""
    error = result.get("error")
    return "ok" if not error else str(error.get("kind") or "exception")
