"""Resource limits of one program run, with documented defaults overridable from the env.

Every field can be set with `GRADSTEP_LIMIT_<FIELD>` (e.g. `GRADSTEP_LIMIT_CPU_SECONDS=2`).
Exceeding one ends the program with `LimitExceeded: <what> limit exceeded ... (line N)`; the
output printed so far is kept. The keys reported in `RunResult.error["limit"]` are the names in
`LIMIT_KEYS`. `docs/sandbox.md` has the table.

Example:
    >>> Limits(cpu_seconds=2).cpu_seconds
    2.0
    >>> Limits.from_env({"GRADSTEP_LIMIT_STDOUT_BYTES": "100"}).stdout_bytes
    100
"""
from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, fields

# field name -> the short key a RunResult reports in error["limit"]
LIMIT_KEYS = {
    "cpu_seconds": "cpu_time",
    "wall_seconds": "wall_time",
    "memory_mb": "memory",
    "max_tensor_elements": "tensor_elements",
    "max_graph_nodes": "graph_nodes",
    "max_trace_events": "trace_events",
    "max_trace_bytes": "trace_bytes",
    "stdout_bytes": "stdout",
    "source_bytes": "source",
    "recursion_depth": "recursion_depth",
}


@dataclass(frozen=True)
class Limits:
    """What one run may use. Defaults suit tutorial snippets on a small shared server."""

    cpu_seconds: float = 5.0            # RLIMIT_CPU (whole seconds, rounded up); SIGKILL 1 s later
    wall_seconds: float = 10.0          # the parent SIGKILLs the run's process group after this
    memory_mb: int = 512                # RLIMIT_AS headroom above the warm worker's size
    max_tensor_elements: int = 10_000_000   # per tensor / array, checked before allocating
    max_graph_nodes: int = 200_000      # grad_fn nodes a run may create
    max_trace_events: int = 20_000      # the recorder keeps this many events, then elides
    max_trace_bytes: int = 2_000_000    # the recorder's byte cap on the trace JSON
    stdout_bytes: int = 256 * 1024      # what print() may write in total
    source_bytes: int = 64 * 1024       # UTF-8 size of the program
    recursion_depth: int = 1000         # Python frames of user code, as in CPython (plus headroom)

    def __post_init__(self):
        for f in fields(self):
            value = getattr(self, f.name)
            cast = float if f.type in ("float", float) else int
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                raise ValueError(f"limit {f.name} must be a positive number, got {value!r}")
            object.__setattr__(self, f.name, cast(value))

    @classmethod
    def from_env(cls, environ=None, **overrides) -> "Limits":
        """Defaults, then `GRADSTEP_LIMIT_*` variables, then keyword overrides."""
        environ = os.environ if environ is None else environ
        values: dict = {}
        for f in fields(cls):
            raw = environ.get("GRADSTEP_LIMIT_" + f.name.upper())
            if raw is not None and raw.strip():
                try:
                    values[f.name] = float(raw)
                except ValueError:
                    name = "GRADSTEP_LIMIT_" + f.name.upper()
                    raise ValueError(f"{name}={raw!r} is not a number") from None
        values.update(overrides)
        return cls(**values)

    def replace(self, **changes) -> "Limits":
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "Limits":
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})
