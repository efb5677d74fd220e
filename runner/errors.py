"""The runner's own exceptions: refusals and limits, never catchable by user code.

Both derive from BaseException (not Exception), so a program's `except Exception:` -- and a bare
`except:`, which the policy rewrites into `except Exception:` -- cannot swallow them: a
violation always ends the program with its own message. PyTorch has no counterpart.

Example:
    >>> issubclass(SecurityError, Exception)
    False
"""
from __future__ import annotations


class SecurityError(BaseException):
    """The program tried something the sandbox does not allow (an import, a dunder, ...)."""


class LimitExceeded(BaseException):
    """A resource limit was hit. `limit` is the key of Limits.describe(), e.g. "cpu_time"."""

    def __init__(self, limit: str, message: str):
        super().__init__(message)
        self.limit = limit


class ProgramTooLarge(SecurityError):
    """The source is over the size limit or too deeply nested to compile."""


# Tracebacks qualify an exception's type with its module unless that module is builtins or
# __main__; the user should read "SecurityError: ...", not "runner.errors.SecurityError: ...".
for _cls in (SecurityError, LimitExceeded, ProgramTooLarge):
    _cls.__module__ = "builtins"
