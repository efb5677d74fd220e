"""`GET /api/examples`: the built-in programs."""
from __future__ import annotations

from pydantic import BaseModel


class ExampleSummary(BaseModel):
    id: str
    title: str
    title_en: str
    title_zh: str
    description: str


class Example(ExampleSummary):
    code: str
