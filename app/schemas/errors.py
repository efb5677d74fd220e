"""The one shape of every error the API itself returns (a program's own errors are a 200)."""
from __future__ import annotations

from pydantic import BaseModel, Field


class ErrorDetail(BaseModel):
    code: str = Field(description="stable, machine-readable: bad_json, rate_limited, busy …")
    message: str = Field(description="a sentence for people")
    request_id: str | None = None


class ErrorBody(BaseModel):
    error: ErrorDetail


def responses(*statuses: int) -> dict:
    """OpenAPI `responses=` entries for these error statuses."""
    return {s: {"model": ErrorBody} for s in statuses}
