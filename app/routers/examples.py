"""/api/examples: the built-in programs learners start from."""
from __future__ import annotations

from typing import Literal

from fastapi import APIRouter

from gradstep.app.dependencies import SettingsDep
from gradstep.app.errors import ApiError
from gradstep.app.schemas.errors import responses
from gradstep.app.schemas.examples import Example, ExampleSummary
from gradstep.app.services.examples import get_example, list_examples

router = APIRouter(prefix="/api/examples", tags=["examples"])


@router.get("", response_model=list[ExampleSummary])
async def examples(settings: SettingsDep, lang: Literal["en", "zh"] = "en") -> list[dict]:
    """List the built-in programs (id and title)."""
    return list_examples(settings.examples_dir, lang)


@router.get("/{example_id}", response_model=Example, responses=responses(404))
async def example(example_id: str, settings: SettingsDep,
                  lang: Literal["en", "zh"] = "en") -> dict:
    """One built-in program with its code."""
    found = get_example(settings.examples_dir, example_id, lang)
    if found is None:
        raise ApiError(404, "not_found", f"There is no example called {example_id!r}.")
    return found
