"""POST /api/run: run a program, answer with its output, trace and graph layout."""
from __future__ import annotations

from fastapi import APIRouter, Path, Request
from fastapi.responses import Response

from gradstep.app.dependencies import ClientDep, GoneDep, RateLimited, RunnerDep
from gradstep.app.schemas.errors import responses
from gradstep.app.schemas.runs import (RUN_ID_PATTERN, RunProgress, RunRequest, RunResponse,
                                       StopResponse)
from gradstep.app.services.compression import accepts_gzip
from gradstep.runner.trace import SCHEMA

router = APIRouter(prefix="/api", tags=["runs"])


@router.post("/run", response_model=RunResponse, dependencies=[RateLimited],
             responses=responses(400, 409, 413, 422, 429, 503))
async def run(body: RunRequest, runs: RunnerDep, client: ClientDep, gone: GoneDep,
              request: Request) -> Response:
    """Run a PyTorch program in the sandbox; its own errors are part of a 200 answer."""
    answer = await runs.run(body.code, client, body.run_id, gone)
    request.state.outcome = answer.outcome
    # Encoded and compressed once, in the worker thread; not re-validated on the way out.
    # (A plain answer gets its Vary from the gzip middleware.)
    headers = {"Server-Timing": answer.timing}
    if accepts_gzip(request.headers.get("accept-encoding")):
        headers.update({"Content-Encoding": "gzip", "Vary": "Accept-Encoding"})
        return Response(answer.gz, media_type="application/json", headers=headers)
    return Response(answer.body, media_type="application/json", headers=headers)


@router.post("/run/{run_id}/stop", response_model=StopResponse, responses=responses(422))
async def stop(runs: RunnerDep,
               run_id: str = Path(pattern=RUN_ID_PATTERN)) -> StopResponse:
    """Stop the run POST /api/run named `run_id`: its sandbox worker is killed and replaced."""
    return StopResponse(stopped=runs.stop(run_id))


@router.get("/run/{run_id}/progress", response_model=RunProgress, responses=responses(422))
async def progress(runs: RunnerDep,
                   run_id: str = Path(pattern=RUN_ID_PATTERN)) -> dict:
    """Where the run POST /api/run named `run_id` stands: waiting (and its place), running."""
    return runs.progress(run_id)


@router.get("/trace-schema")
async def trace_schema() -> dict:
    """The JSON Schema of the trace inside a run's answer."""
    return SCHEMA
