"""`POST /api/render`: a program in, its graph picture out."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class RenderRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    code: str = Field(description="a PyTorch program (`import torch`)")
    format: Literal["svg", "png", "dot"] = "svg"
