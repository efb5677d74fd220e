"""Start-up and shut-down of one web worker: the sandbox pool, caches, limiter, templates.

Each uvicorn worker process gets its own WorkerPool of `GRADSTEP_POOL_SIZE` sandbox
processes, started before the first request and closed on shutdown.
"""
from __future__ import annotations

import asyncio
import logging
from contextlib import asynccontextmanager
from collections.abc import Callable

import anyio
from fastapi import FastAPI
from fastapi.templating import Jinja2Templates

from gradstep.app.services.cache import LruCache, PackedLruCache
from gradstep.app.services.deadline import expire_all
from gradstep.app.services.dot_process import DotProcess
from gradstep.app.services.layout import warm_up
from gradstep.app.services.fair_gate import FairGate
from gradstep.app.services.learners import LearnerBook
from gradstep.app.services.limits import RateLimiter
from gradstep.app.services.runs import Answer, RunService
from gradstep.app.services.start_up import start_up_programs
from gradstep.app.settings import Settings


def default_pool(settings: Settings):
    """The runner's warm pool with the runner's limits (GRADSTEP_LIMIT_* apply)."""
    from gradstep.runner import Limits, WorkerPool

    limits = Limits.from_env()
    if settings.run_timeout:
        limits = limits.replace(wall_seconds=settings.run_timeout)
    return WorkerPool(size=settings.pool_size, limits=limits)


log = logging.getLogger("gradstep.app")


def sandbox_report(layers: dict, required: set[str]) -> str:
    """The start-up line about the sandbox's OS layers and whether they are required.

    Example:
        >>> sandbox_report({"rlimits": True, "seccomp": True, "landlock": False}, set())[:58]
        'gradstep sandbox: active: rlimits, seccomp; missing: landl'
    """
    active = ", ".join(k for k, on in layers.items() if on) or "none reported"
    missing = ", ".join(k for k, on in layers.items() if not on)
    line = f"gradstep sandbox: active: {active}" + (f"; missing: {missing}" if missing else "")
    if required:
        return (f"{line}. Strict (GRADSTEP_SANDBOX_STRICT): this server does not start without "
                f"{' and '.join(sorted(required))}.")
    return (f"{line}. Not strict: without seccomp or Landlock this server would still start, on "
            "the other layers (the default, meant for a laptop); GRADSTEP_SANDBOX_STRICT=1 "
            "makes it refuse, as the Docker image and the Kubernetes manifests do.")


def make_lifespan(settings: Settings, pool_factory: Callable | None = None):
    """A lifespan that builds the app's long-lived objects from `settings`."""
    @asynccontextmanager
    async def lifespan(app: FastAPI):
        factory = pool_factory or default_pool
        pool = await anyio.to_thread.run_sync(factory, settings)
        if getattr(pool, "layers", None) is not None:
            from gradstep.runner.sandbox import required_layers
            log.info(sandbox_report(pool.layers, required_layers()))
        # The first layout loads Graphviz's plugins and fonts (10-15 ms): not on a learner's
        # first request.
        await anyio.to_thread.run_sync(warm_up)
        app.state.settings = settings
        app.state.pool = pool
        app.state.limiter = RateLimiter(settings.rate_limit)
        app.state.learners = LearnerBook(settings.learners_per_address)
        app.state.templates = Jinja2Templates(directory=str(settings.templates_dir))
        app.state.runs = RunService(
            pool=pool, gate=FairGate(settings.concurrency, settings.queue_timeout,
                                     settings.client_slot_share),
            max_program_bytes=settings.max_program_bytes,
            runs=LruCache(settings.layout_cache_size, settings.answer_cache_bytes,
                          Answer.weight),
            layouts=PackedLruCache(settings.layout_cache_size, settings.answer_cache_bytes),
            layout_max_nodes=settings.layout_max_nodes,
            answer_max_bytes=settings.answer_max_bytes,
            layout_timeout=settings.layout_timeout,
            dot_runner=DotProcess(settings.layout_timeout))
        # The lessons' and examples' answers are made while the server already serves:
        # /healthz answers at once, and a learner who comes first runs the program as usual.
        closing = asyncio.Event()
        start_up = (asyncio.create_task(app.state.runs.precompute(
            start_up_programs(settings), closing)) if settings.precompute else None)
        app.state.start_up = start_up
        try:
            yield
        finally:
            # a layout still running would hold the shutdown up to its deadline
            expire_all()
            closing.set()
            if start_up is not None:
                await asyncio.gather(start_up, return_exceptions=True)
            await anyio.to_thread.run_sync(app.state.runs.dot_runner.close)
            await anyio.to_thread.run_sync(pool.close)
    return lifespan
