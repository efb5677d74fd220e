"""/healthz and /readyz for load balancers and orchestrators."""
from __future__ import annotations

import anyio
from fastapi import APIRouter, Request

from gradstep.app.errors import ApiError
from gradstep.app.schemas.errors import responses
from gradstep.app.schemas.health import Health, Ready

router = APIRouter(tags=["health"])
PING_TIMEOUT = 5.0


@router.get("/healthz", response_model=Health)
async def healthz() -> dict:
    """Liveness: the web process answers."""
    return {"status": "ok"}


@router.get("/readyz", response_model=Ready, responses=responses(503))
async def readyz(request: Request) -> dict:
    """Readiness: a sandbox worker answered a round trip."""
    pool = request.app.state.pool
    try:
        with anyio.fail_after(PING_TIMEOUT):
            seconds = await anyio.to_thread.run_sync(pool.ping, abandon_on_cancel=True)
    except Exception as exc:
        raise ApiError(503, "not_ready", f"No sandbox worker answered: {exc or 'timeout'}",
                       headers={"Retry-After": "5"}) from None
    return {"status": "ready", "ping_ms": round(seconds * 1000, 2),
            "pool_size": request.app.state.settings.pool_size}
