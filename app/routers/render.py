"""/api/render: a program's graph as a standalone SVG (or PNG, or DOT) file."""
from __future__ import annotations

from typing import Literal

import anyio
from fastapi import APIRouter, Query
from fastapi.responses import Response

from gradstep.app.dependencies import ClientDep, RateLimited, RunnerDep
from gradstep.app.errors import ApiError
from gradstep.app.schemas.errors import responses
from gradstep.app.schemas.render import RenderRequest
from gradstep.app.services.deadline import Overrun, deadline
from gradstep.app.services.dot_process import LayoutTimeout
from gradstep.app.services.layout import GraphTooLarge
from gradstep.app.services.lean_svg import titled_svg
from gradstep.app.services.render import MEDIA_TYPES, render_trace, standalone_svg

router = APIRouter(prefix="/api", tags=["render"])
PICTURES = {200: {"content": {t: {} for t in MEDIA_TYPES.values()},
                  "description": "the picture"}, **responses(400, 413, 422, 429, 503)}


async def _render(runs, code: str, fmt: str, client: str) -> Response:
    answer = await runs.run(code, client)
    layout = answer.data["layout"]
    if fmt == "svg" and layout:   # the run's own layout is this very picture: no second dot
        return _picture(standalone_svg(titled_svg(layout)), fmt)
    trace = answer.data["trace"] or {"events": []}

    def draw() -> bytes:      # in a worker thread, within the layout's deadline
        try:
            with deadline(runs.layout_timeout):
                return render_trace(trace, fmt, runs.layout_max_nodes, runs.dot_runner)
        except Overrun:
            raise LayoutTimeout(f"Drawing the graph took longer than {runs.layout_timeout:g} "
                                "s, and the server stopped it.") from None
    try:
        data = await anyio.to_thread.run_sync(draw)
    except GraphTooLarge as exc:
        raise ApiError(413, "graph_too_large", str(exc)) from None
    except LayoutTimeout as exc:
        raise ApiError(503, "layout_timeout", str(exc)) from None
    return _picture(data, fmt)


def _picture(data: bytes, fmt: str) -> Response:
    return Response(data, media_type=MEDIA_TYPES[fmt],
                    headers={"Content-Disposition": f'inline; filename="graph.{fmt}"'})


@router.post("/render", response_class=Response, dependencies=[RateLimited], responses=PICTURES)
async def render(body: RenderRequest, runs: RunnerDep, client: ClientDep) -> Response:
    """Run a program and return its autograd graph as a picture."""
    return await _render(runs, body.code, body.format, client)


@router.get("/render", response_class=Response, dependencies=[RateLimited], responses=PICTURES)
async def render_get(runs: RunnerDep, client: ClientDep,
                     code: str = Query(description="the program"),
                     format: Literal["svg", "png", "dot"] = "svg") -> Response:
    """The same as POST /api/render, with the program in the query (for <img src>)."""
    return await _render(runs, code, format, client)
