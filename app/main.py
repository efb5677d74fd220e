"""The FastAPI application: routers, static files, gzip and the guard middleware; nothing else.

Example:
    >>> create_app().title
    'gradstep'
"""
from __future__ import annotations

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from gradstep.app import __version__, errors
from gradstep.app.lifespan import make_lifespan
from gradstep.app.middleware import GuardMiddleware
from gradstep.app.routers import docs, examples, export, health, lessons, pages, render, runs
from gradstep.app.services.compression import GzipMiddleware
from gradstep.app.services.hosts import HostCheck
from gradstep.app.settings import Settings, get_settings


def create_app(settings: Settings | None = None, pool_factory=None) -> FastAPI:
    """Build the app; `pool_factory(settings)` replaces the runner's WorkerPool in tests."""
    settings = settings or get_settings()
    app = FastAPI(title="gradstep", version=__version__, docs_url=None, redoc_url=None,
                  summary="Run a PyTorch autograd snippet; get its trace and graph.",
                  lifespan=make_lifespan(settings, pool_factory))
    app.state.settings = settings
    errors.install(app)
    for module in (pages, lessons, runs, render, export, examples, health, docs):
        app.include_router(module.router)
    app.mount("/static", StaticFiles(directory=settings.static_dir, check_dir=False), "static")
    # Run answers arrive compressed already (Content-Encoding set), which GZip passes through.
    app.add_middleware(GzipMiddleware)
    app.add_middleware(GuardMiddleware, max_body_bytes=settings.max_body_bytes,
                       max_header_bytes=settings.max_header_bytes,
                       body_timeout=settings.body_timeout,
                       frame_ancestors=settings.frame_ancestors,
                       log_requests=settings.access_log,
                       hosts=HostCheck(settings.host, settings.allowed_hosts or ""))
    return app

