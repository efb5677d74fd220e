"""`gradstep serve`: uvicorn running app.main:create_app, with 1..N worker processes.

Each worker process builds its own app (and so its own sandbox pool, caches and rate limiter);
the access log is one JSON line per request on stderr.
"""
from __future__ import annotations

import os
import sys

from gradstep.app.settings import get_settings

LOG_CONFIG = {
    "version": 1, "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(message)s"},
                   "app": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"access": {"class": "logging.StreamHandler", "formatter": "plain",
                            "stream": "ext://sys.stderr"},
                 "app": {"class": "logging.StreamHandler", "formatter": "app",
                         "stream": "ext://sys.stderr"}},
    "loggers": {"gradstep.access": {"handlers": ["access"], "level": "INFO",
                                    "propagate": False},
                "gradstep": {"handlers": ["app"], "level": "INFO", "propagate": False},
                "uvicorn": {"handlers": ["app"], "level": "INFO", "propagate": False},
                # gradstep's own access line replaces uvicorn's
                "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": False}},
}


def strict_sandbox_problem() -> str | None:
    """In strict mode (GRADSTEP_SANDBOX_STRICT), start one sandbox worker before uvicorn
    does: a missing layer then stops `gradstep serve` with one clear line and exit code 1,
    instead of failing every web worker's start-up (which uvicorn's supervisor restarts)."""
    from gradstep.runner.sandbox import SandboxUnavailable, WorkerPool, required_layers

    if not required_layers():
        return None
    try:
        WorkerPool(size=1).close()
    except SandboxUnavailable as exc:
        return str(exc)
    return None


def serve(host: str | None = None, port: int | None = None, workers: int | None = None,
          reload: bool = False) -> int:
    """Run the server until interrupted; arguments override GRADSTEP_HOST/PORT/WEB_WORKERS."""
    import uvicorn

    settings = get_settings()
    host = host or settings.host
    port = port if port is not None else settings.port
    workers = workers or settings.web_workers
    if reload and workers > 1:
        print("gradstep serve: --reload runs one worker; ignoring --workers", file=sys.stderr)
        workers = 1
    problem = strict_sandbox_problem()
    if problem:
        print(f"gradstep serve: refusing to start: {problem}. GRADSTEP_SANDBOX_STRICT asks for "
              "these layers; run where the kernel and the container's seccomp profile allow "
              "them, or unset it to serve without them.", file=sys.stderr, flush=True)
        return 1
    # Worker processes re-read the settings from the environment, so pass the choice on.
    os.environ.update(GRADSTEP_HOST=host, GRADSTEP_PORT=str(port),
                      GRADSTEP_WEB_WORKERS=str(workers))
    # uvicorn configures logging only inside run(), so this line goes straight to stderr
    print(f"gradstep: serving on http://{host}:{port} with {workers} worker(s)",
          file=sys.stderr, flush=True)
    uvicorn.run("gradstep.app.main:create_app", factory=True, host=host, port=port, workers=workers,
                reload=reload, log_config=LOG_CONFIG, proxy_headers=False,
                server_header=False, timeout_graceful_shutdown=5,
                # h11 with deadlines, not httptools: app/http_protocol.py says why
                http="gradstep.app.http_protocol:DeadlineH11Protocol",
                h11_max_incomplete_event_size=settings.max_header_bytes,
                limit_concurrency=settings.max_connections)
    return 0
