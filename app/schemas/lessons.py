"""`/api/lessons`: the guided lessons, in one language at a time."""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class LessonSummary(BaseModel):
    id: str
    order: int
    title: str
    summary: str


class WatchPointer(BaseModel):
    event: str = Field(description="the trace event kind the pointer lands on")
    nth: int = Field(description="which occurrence of that kind, counting from 1")
    line: int | None = Field(None, description="only events on this program line count")
    text: str
    seq: int | None = Field(None, description="the event's seq in this lesson's trace "
                                              "(only in /api/lessons/{id}/run)")


class Question(WatchPointer):
    """Predict, then step: `text` asks; the step the pointer lands on shows the answer."""
    choices: list[str] = Field(description="the choices; empty when the answer is typed")
    answer: int | str = Field(description="the index of the right choice, or the typed answer")


class Lesson(LessonSummary):
    paragraphs: list[str]
    program: str
    watch: list[WatchPointer]
    passages: list[WatchPointer] = Field(
        default_factory=list, description="the text passage by passage, each bound to a step")
    questions: list[Question] = Field(default_factory=list)
    prev: LessonSummary | None
    next: LessonSummary | None


class LessonRun(BaseModel):
    """The lesson's program run as by POST /api/run, with every pointer resolved to a step."""
    lesson: Lesson
    run: dict[str, Any]
