"""`POST /api/run`: the program in, its output, trace and graph layout out."""
from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from gradstep.runner.trace import FORMAT, VERSION

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


class ExportRequest(RunRequest):
    before: str | None = Field(None, description="an earlier version of the program: the file "
                               "then plays both runs side by side, `before` on the left")


class StopResponse(BaseModel):
    stopped: bool = Field(description="true if the run was executing and has been ended; "
                          "false if it had not started (it will not), had finished, or is "
                          "unknown")


class RunProgress(BaseModel):
    state: Literal["waiting", "running", "unknown"] = Field(
        description="waiting for a sandbox worker, running, or unknown (finished, not arrived "
        "yet, or never sent)")
    place: int | None = Field(description="while waiting: 1 when it is next in line")
    waiting: int = Field(description="runs waiting for a sandbox worker on this web worker")


class RunError(BaseModel):
    type: str
    message: str
    line: int | None = None
    kind: str = Field(description='"exception", "refused", "limit" or "crash"')
    limit: str | None = Field(None, description='which limit, when kind is "limit"')
    origin: str | None = Field(None, description='who raised it: "pytorch", "python" or '
                               '"gradstep" (its own stops); the page heads each differently')


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
    rows: list[str] = Field(default_factory=list,
                            description="value rows kept under the label: data, grad, saved")
    chars: int = Field(0, description="the widest row text the box has room for, in characters")


class LayoutEdge(BaseModel):
    id: str = Field(description="e_<from>_<to>, also the SVG element id")
    model_config = ConfigDict(populate_by_name=True)
    from_: str = Field(alias="from")
    to: str
    kind: str = Field(description="next, variable, output, saved or constant")


class LayoutView(BaseModel):
    svg: str = Field(description="the drawn graph; <g> ids are the trace's ids")
    nodes: dict[str, LayoutNode]
    edges: list[LayoutEdge]
    width: float
    height: float
    dropped: bool = Field(False, description="an empty stand-in for a picture left out to "
                          "keep the answer within its size budget")


class LayoutIteration(BaseModel):
    view: int = Field(description="0: the top-level picture, k: views[k - 1]")
    passes: list[int] | None = Field(None, description="first and last backward pass shown")
    alias: dict[str, str] | None = Field(None, description="drawn id -> this stretch's id")
    summarised: bool = Field(False, description="an elided step summarises part of it")


class Layout(LayoutView):
    engine: Literal["dot"] = "dot"
    views: list[LayoutView] = Field(default_factory=list,
                                    description="the other pictures, one per distinct iteration")
    iterations: list[LayoutIteration] = Field(default_factory=list)
    steps: list[list[int]] = Field(default_factory=list,
                                   description="[seq, iteration] where the stretch shown changes")


class LayoutBudget(BaseModel):
    max_bytes: int = Field(description="the answer's size budget (GRADSTEP_ANSWER_MAX_BYTES)")
    pictures: int = Field(description="pictures the run's graph is drawn on")
    drawn: int = Field(description="of which laid out; the later ones are empty stand-ins")


class RunResponse(BaseModel):
    result: RunOutput
    trace: dict[str, Any] | None = Field(description=TRACE_DESCRIPTION)
    layout: Layout | None = Field(description="the graph of everything the run created")
    layout_note: str | None = Field(None, description="why layout is null, or which pictures "
                                    "were left out")
    layout_budget: LayoutBudget | None = Field(
        None, description="present when pictures were left out to keep the answer's size")
    layout_timeout: float | None = Field(
        None, description="present when the layout ran past this many seconds "
                          "(GRADSTEP_LAYOUT_TIMEOUT) and was stopped; layout is then null")
