"""`/healthz` and `/readyz`."""
from __future__ import annotations

from pydantic import BaseModel


class Health(BaseModel):
    status: str


class Ready(Health):
    ping_ms: float
    pool_size: int
