"""`POST /api/run`: the program in, its output, trace and graph layout out."""
from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from runner.trace import FORMAT, VERSION

TRACE_DESCRIPTION = (f"The run's trace, format {FORMAT!r} version {VERSION}: the schema is "
                     "runner/trace.schema.json (also served at /api/trace-schema), the spec "
                     "docs/trace-format.md.")


RUN_ID_PATTERN = r"^[A-Za-z0-9_-]{16,64}$"


class RunRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    code: str = Field(description="a PyTorch program (`import torch`)",
                      examples=["import torch\nx = torch.ones(2, requires_grad=True)\n"
                                "x.sum().backward()\nprint(x.grad)\n"])
    lang: Literal["en", "zh"] | None = Field(None, description="the learner's UI language")
    run_id: str | None = Field(None, pattern=RUN_ID_PATTERN,
                               description="a random token naming this run, so that "
                               "POST /api/run/{run_id}/stop can stop it")


class StopResponse(BaseModel):
    stopped: bool = Field(description="true if the run was executing and has been ended; "
                          "false if it had not started (it will not), had finished, or is "
                          "unknown")


class RunError(BaseModel):
    type: str
    message: str
    line: int | None = None
    kind: str = Field(description='"exception", "refused", "limit" or "crash"')
    limit: str | None = Field(None, description='which limit, when kind is "limit"')


class RunOutput(BaseModel):
    stdout: str = Field(description="what `python FILE` with PyTorch would print")
    stderr: str = Field(description="warnings, and the traceback of an uncaught exception")
    exit_code: int
    error: RunError | None
    duration_ms: float


class LayoutNode(BaseModel):
    x: float = Field(description="centre, in the SVG's user units, origin top left")
    y: float
    w: float
    h: float


class LayoutEdge(BaseModel):
    id: str = Field(description="e_<from>_<to>, also the SVG element id")
    model_config = ConfigDict(populate_by_name=True)
    from_: str = Field(alias="from")
    to: str
    kind: str = Field(description="next, variable, output, saved or constant")


class Layout(BaseModel):
    engine: Literal["dot"] = "dot"
    svg: str = Field(description="the drawn graph; <g> ids are the trace's ids")
    nodes: dict[str, LayoutNode]
    edges: list[LayoutEdge]
    width: float
    height: float


class RunResponse(BaseModel):
    result: RunOutput
    trace: dict[str, Any] | None = Field(description=TRACE_DESCRIPTION)
    layout: Layout | None = Field(description="the graph of everything the run created")
    layout_note: str | None = Field(None, description="why layout is null, when it is")
