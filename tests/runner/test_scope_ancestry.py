"""A module scope is never its own ancestor (runner/recorder_scopes.py), even when the code
calling a block names it like the model around it."""
from __future__ import annotations

from pathlib import Path

from gradstep.runner import run_program

PROGRAM = (Path(__file__).resolve().parents[1] / "fixtures" / "server_programs"
           / "loop_variable_named_like_the_model.py")


def ancestors(path: str, parent_of: dict[str, str | None]) -> list[str]:
    """The parent chain of `path`; stops (and returns what it has) on a repeat."""
    chain: list[str] = []
    at = parent_of.get(path)
    while at is not None and at not in chain and len(chain) <= len(parent_of):
        chain.append(at)
        at = parent_of.get(at)
    if at is not None:
        chain.append(at)      # the repeat itself: the caller sees the cycle
    return chain


def test_a_block_called_through_a_variable_named_like_its_model_is_not_its_own_parent():
    result = run_program(PROGRAM.read_text(), trace=True)
    assert result.error is None, result.error
    scopes = result.trace["scopes"]
    assert {s["type"] for s in scopes} == {"Model", "Block", "Linear"}
    for s in scopes:
        assert s["path"] != s["parent"], s
    # each call's parent is a call still open around it: no path repeats on that chain
    parent_of: dict[str, str | None] = {}
    for s in scopes:
        parent_of.setdefault(s["path"], s["parent"])
    for s in scopes:
        chain = ancestors(s["path"], parent_of)
        assert s["path"] not in chain and len(chain) == len(set(chain)), (s["path"], chain)
    model = next(s for s in scopes if s["type"] == "Model")
    assert model["path"] == "m" and model["parent"] is None
    assert all(s["parent"] == "m" for s in scopes if s["type"] == "Block")
