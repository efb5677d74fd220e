"""Sandboxed execution of user programs and the step-by-step trace (architecture.md §2).

`run_program` runs one program in a fresh worker; `WorkerPool` keeps warm workers for the
app. Both return a `RunResult`. Limits come from `Limits` (defaults, `GRADSTEP_LIMIT_*`).

Example:
    >>> from gradstep.runner import run_program
    >>> run_program("print(2 + 2)\\n", trace=False).stdout
    '4\\n'
"""
from gradstep.runner.limits import Limits
from gradstep.runner.sandbox import RunResult, WorkerPool, run_program

__all__ = ["run_program", "Limits", "RunResult", "WorkerPool"]
