"""Annotated dependency aliases the routers declare (FastAPI's "bigger applications" layout).

The long-lived objects are made once in the lifespan (app/lifespan.py) and kept on
`app.state`; these aliases hand them to route functions, and tests swap them by building the
app with another `Settings` or pool.
"""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated

from fastapi import Depends, Request
from fastapi.templating import Jinja2Templates

from gradstep.app.services.learners import HEADER, LearnerBook
from gradstep.app.services.limits import RateLimiter, client_key
from gradstep.app.services.runs import RunService
from gradstep.app.settings import Settings


def get_settings(request: Request) -> Settings:
    return request.app.state.settings


def get_runs(request: Request) -> RunService:
    return request.app.state.runs


def get_templates(request: Request) -> Jinja2Templates:
    return request.app.state.templates


def get_client(request: Request) -> str:
    """Who is asking: the key its rate and its share of the sandbox slots are counted by
    (its address, and the learner its browser names: app/services/learners.py)."""
    address = client_key(request.client.host if request.client else None,
                         request.headers.get("x-forwarded-for"),
                         request.app.state.settings.trust_proxy_headers)
    learners: LearnerBook | None = getattr(request.app.state, "learners", None)
    return learners.key(address, request.headers.get(HEADER)) if learners else address


def get_gone(request: Request) -> Callable[[], Awaitable[None]]:
    """A coroutine function that returns once the client has gone away."""
    async def gone() -> None:
        while (await request.receive())["type"] != "http.disconnect":
            pass
    return gone


def rate_limited(request: Request) -> None:
    """Charge one run to the calling client; 429 when it is over its rate."""
    limiter: RateLimiter = request.app.state.limiter
    limiter.enforce(get_client(request))


SettingsDep = Annotated[Settings, Depends(get_settings)]
RunnerDep = Annotated[RunService, Depends(get_runs)]
ClientDep = Annotated[str, Depends(get_client)]
GoneDep = Annotated[Callable[[], Awaitable[None]], Depends(get_gone)]
TemplatesDep = Annotated[Jinja2Templates, Depends(get_templates)]
RateLimited = Depends(rate_limited)
