"""The runner's own exceptions: refusals and limits, never catchable by user code.

Both derive from BaseException (not Exception), so a program's `except Exception:` -- and a bare
`except:`, which the policy rewrites into `except Exception:` -- cannot catch them. Nor can
anything else swallow one: `return` inside `finally`, or an `__exit__` that returns True. Each
stop is remembered when it is made (`pending_stop`), the guards raise it again at the program's
next guarded step, and the run reports it however the program ended. PyTorch has no
counterpart.

Example:
    >>> issubclass(SecurityError, Exception)
    False
"""
from __future__ import annotations


class _Stops:
    """The first stop of the run in progress (one run per process: runner.child starts and
    ends it). Outside a run (the zygote, the pool, tests) nothing is remembered."""

    first: BaseException | None = None
    active = False


def start_run() -> None:
    _Stops.first, _Stops.active = None, True


def end_run() -> None:
    _Stops.first, _Stops.active = None, False


def pending_stop() -> BaseException | None:
    """The first SecurityError or LimitExceeded made in this run, caught or not."""
    return _Stops.first


def raise_pending() -> None:
    """Raise the run's first stop again if the program swallowed it (a guard's first step)."""
    if _Stops.first is not None:
        raise _Stops.first


def _remember(stop: BaseException) -> None:
    if _Stops.active and _Stops.first is None:
        _Stops.first = stop


class SecurityError(BaseException):
    """The program tried something the sandbox does not allow (an import, a dunder, ...)."""

    def __init__(self, *args):
        super().__init__(*args)
        _remember(self)


class LimitExceeded(BaseException):
    """A resource limit was hit. `limit` is the key of Limits.describe(), e.g. "cpu_time"."""

    def __init__(self, limit: str, message: str):
        super().__init__(message)
        self.limit = limit
        _remember(self)


class ProgramTooLarge(SecurityError):
    """The source is over the size limit or too deeply nested to compile."""


# Tracebacks qualify an exception's type with its module unless that module is builtins or
# __main__; the user should read "SecurityError: ...", not "runner.errors.SecurityError: ...".
for _cls in (SecurityError, LimitExceeded, ProgramTooLarge):
    _cls.__module__ = "builtins"
