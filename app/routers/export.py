"""/api/export: a program's run as one standalone HTML player (the Export menu's
"interactive HTML"), the same file `gradstep export` writes."""
from __future__ import annotations

import anyio
from fastapi import APIRouter
from fastapi.responses import Response

from gradstep.app.dependencies import ClientDep, RateLimited, RunnerDep, SettingsDep
from gradstep.app.schemas.errors import responses
from gradstep.app.errors import ApiError
from gradstep.app.schemas.runs import ExportRequest
from gradstep.app.services.deadline import Overrun, deadline
from gradstep.app.services.standalone import standalone_html

router = APIRouter(prefix="/api", tags=["export"])
PAGE = {200: {"content": {"text/html": {}}, "description": "the standalone player"},
        **responses(400, 413, 422, 429, 503)}


@router.post("/export", response_class=Response, dependencies=[RateLimited], responses=PAGE)
async def export(body: ExportRequest, runs: RunnerDep, client: ClientDep,
                 settings: SettingsDep) -> Response:
    """Run a program (and `before`, if given, to play side by side) as one HTML player."""
    answer = await runs.run(body.code, client)
    before = None if body.before is None else (await runs.run(body.before, client)).data

    def page() -> str:        # in a worker thread, within the layout's deadline
        try:
            with deadline(runs.layout_timeout):
                return standalone_html(answer.data, lang=body.lang or "en", settings=settings,
                                       before=before)
        except Overrun:
            raise ApiError(503, "export_timeout", f"Writing the page took longer than "
                           f"{runs.layout_timeout:g} s, and the server stopped it.") from None
    html = await anyio.to_thread.run_sync(page)
    return Response(html.encode("utf-8"), media_type="text/html; charset=utf-8",
                    headers={"Content-Disposition": 'attachment; filename="gradstep.html"'})
