"""Resource limits of one program run, with documented defaults overridable from the env.

Every field can be set with `GRADSTEP_LIMIT_<FIELD>` (e.g. `GRADSTEP_LIMIT_CPU_SECONDS=2`).
Exceeding one ends the program with `LimitExceeded: <what> limit exceeded ... (line N)`; the
output printed so far is kept.

Time is measured as the program's own CPU time: what a run costs does not depend on how busy
the machine is. The wall clock is only a backstop, four times the CPU limit, for a run that
waits instead of computing: a program needing 3 s of CPU finishes within it as long as it
gets 15 % of a core, which a 2-core server still gives at a load of 12. The keys reported
in `RunResult.error["limit"]` are the names in `LIMIT_KEYS`. `docs/sandbox.md` has the table.

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
    wall_seconds: float = 20.0          # backstop: the parent SIGKILLs the run's group after this
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

    def cpu_message(self, used: float) -> str:
        """The message of a run stopped by the CPU limit, after `used` seconds of CPU.

        Example:
            >>> Limits(cpu_seconds=2).cpu_message(2.04)
            'CPU time limit exceeded (2 s): the program used 2.0 s of CPU time; it needs less \
work, or a server started with a larger GRADSTEP_LIMIT_CPU_SECONDS'
        """
        # the kernel's signal comes at the limit, but its clock and the process's may differ
        # by a tick: the run used at least the limit
        used = max(used, self.cpu_seconds)
        return (f"CPU time limit exceeded ({self.cpu_seconds:g} s): the program used "
                f"{used:.1f} s of CPU time; it needs less work, or a server started with a "
                f"larger GRADSTEP_LIMIT_CPU_SECONDS")

    def wall_message(self, cpu_used: float | None) -> str:
        """The message of a run stopped by the wall-clock backstop, having used `cpu_used`
        seconds of CPU (None: not known).

        Example:
            >>> Limits(cpu_seconds=5, wall_seconds=20).wall_message(1.23)
            'wall time limit exceeded (20 s): the program ran for 20 s but used only 1.2 s \
of CPU time (its limit is 5 s), so the server was too busy to finish it; run it again later'
        """
        head = f"wall time limit exceeded ({self.wall_seconds:g} s)"
        if cpu_used is None:
            return head
        return (f"{head}: the program ran for {self.wall_seconds:g} s but used only "
                f"{cpu_used:.1f} s of CPU time (its limit is {self.cpu_seconds:g} s), so the "
                f"server was too busy to finish it; run it again later")

    def replace(self, **changes) -> "Limits":
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "Limits":
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})
