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
from gradstep.app.errors import ApiError
from gradstep.app.services.limits import RateLimiter, client_key
from gradstep.app.services.pages import sandbox_is_partial
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
    settings = request.app.state.settings
    # several X-Forwarded-For lines are one list, in order (RFC 9110, 5.3)
    forwarded = ", ".join(request.headers.getlist("x-forwarded-for")) or None
    address = client_key(request.client.host if request.client else None, forwarded,
                         settings.trust_proxy_headers, settings.trusted_proxies)
    learners: LearnerBook | None = getattr(request.app.state, "learners", None)
    return learners.key(address, request.headers.get(HEADER)) if learners else address


def get_gone(request: Request) -> Callable[[], Awaitable[None]]:
    """A coroutine function that returns once the client has gone away."""
    async def gone() -> None:
        while (await request.receive())["type"] != "http.disconnect":
            pass
    return gone


def rate_limited(request: Request) -> None:
    """Admit one run: refuse one another site's page asked for on a server without the OS
    layers, then charge it to the calling client (429 when it is over its rate)."""
    refuse_cross_site_run(request)
    limiter: RateLimiter = request.app.state.limiter
    limiter.enforce(get_client(request))


def refuse_cross_site_run(request: Request) -> None:
    """403 for a run another site's page made the browser request (`<img
    src=".../api/render?code=...">` needs no permission), where the sandbox lacks its OS
    layers and the language layer is the only wall. Browsers say who asked in
    `Sec-Fetch-Site`; other clients send no such header and are not refused. A server with
    every layer keeps serving other sites (a course page's picture of a graph)."""
    site = request.headers.get("sec-fetch-site")
    if site in ("cross-site", "same-site") and sandbox_is_partial(request.app.state.pool):
        raise ApiError(403, "cross_site_run", "This server runs programs without its "
                       "operating-system sandbox layers, so it runs none that another site's "
                       "page asks for. Open the program in gradstep's own page and press Run.")


SettingsDep = Annotated[Settings, Depends(get_settings)]
RunnerDep = Annotated[RunService, Depends(get_runs)]
ClientDep = Annotated[str, Depends(get_client)]
GoneDep = Annotated[Callable[[], Awaitable[None]], Depends(get_gone)]
TemplatesDep = Annotated[Jinja2Templates, Depends(get_templates)]
RateLimited = Depends(rate_limited)
