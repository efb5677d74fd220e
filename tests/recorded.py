"""A program recorded through the runner's worker pool, checked the way every trace test
starts: a trace came back, it is valid, nothing raised, and the program printed what PyTorch
prints."""
from gradstep.runner import trace as T


def events_of(trace: dict, kind: str) -> list[dict]:
    return [e for e in trace["events"] if e["kind"] == kind]


def record_clean(pool, program: str, printed: str) -> dict:
    result = pool.run(program, filename="main.py", trace=True)
    assert result.trace is not None, result.stderr[-500:]
    trace = result.trace
    T.validate(trace)
    assert not events_of(trace, "error")
    assert "".join(e["text"] for e in events_of(trace, "stdout")) == printed
    return trace
