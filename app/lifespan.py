"""Start-up and shut-down of one web worker: the sandbox pool, caches, limiter, templates.

Each uvicorn worker process gets its own WorkerPool of `GRADSTEP_POOL_SIZE` sandbox
processes, started before the first request and closed on shutdown.
"""
from __future__ import annotations

from contextlib import asynccontextmanager
from typing import Callable

import anyio
from fastapi import FastAPI
from fastapi.templating import Jinja2Templates

from app.services.cache import LruCache
from app.services.dot_process import DotProcess
from app.services.layout import warm_up
from app.services.limits import RateLimiter, RunGate
from app.services.runs import RunService
from app.settings import Settings


def default_pool(settings: Settings):
    """The runner's warm pool with the runner's limits (GRADSTEP_LIMIT_* apply)."""
    from runner import Limits, WorkerPool

    limits = Limits.from_env()
    if settings.run_timeout:
        limits = limits.replace(wall_seconds=settings.run_timeout)
    return WorkerPool(size=settings.pool_size, limits=limits)


def make_lifespan(settings: Settings, pool_factory: Callable | None = None):
    """A lifespan that builds the app's long-lived objects from `settings`."""
    @asynccontextmanager
    async def lifespan(app: FastAPI):
        factory = pool_factory or default_pool
        pool = await anyio.to_thread.run_sync(factory, settings)
        # The first layout loads Graphviz's plugins and fonts (10-15 ms): not on a learner's
        # first request.
        await anyio.to_thread.run_sync(warm_up)
        app.state.settings = settings
        app.state.pool = pool
        app.state.limiter = RateLimiter(settings.rate_limit)
        app.state.templates = Jinja2Templates(directory=str(settings.templates_dir))
        app.state.runs = RunService(
            pool=pool, gate=RunGate(settings.concurrency, settings.queue_timeout),
            max_program_bytes=settings.max_program_bytes,
            runs=LruCache(settings.layout_cache_size),
            layouts=LruCache(settings.layout_cache_size),
            layout_max_nodes=settings.layout_max_nodes,
            dot_runner=DotProcess(settings.layout_timeout))
        try:
            yield
        finally:
            await anyio.to_thread.run_sync(app.state.runs.dot_runner.close)
            await anyio.to_thread.run_sync(pool.close)
    return lifespan
