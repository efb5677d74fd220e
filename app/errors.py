"""Every error the API answers is JSON of one shape: `{"error": {"code", "message"}}`.

`ApiError` is raised by services; the handlers here turn it, FastAPI's validation errors and
unknown routes into that shape. A user program's own failure is not an ApiError: it is part
of a 200 run result.

Example:
    >>> ApiError(429, "rate_limited", "Too many runs.").status
    429
"""
from __future__ import annotations

import json

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException


class ApiError(Exception):
    """An answer other than success, with a stable code and a sentence for people."""

    def __init__(self, status: int, code: str, message: str,
                 headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status, self.code, self.message, self.headers = status, code, message, headers


def error_response(request: Request | None, status: int, code: str, message: str,
                   headers: dict[str, str] | None = None) -> JSONResponse:
    rid = getattr(request.state, "request_id", None) if request is not None else None
    body = {"error": {"code": code, "message": message, "request_id": rid}}
    return JSONResponse(body, status_code=status, headers=headers)


async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
    return error_response(request, exc.status, exc.code, exc.message, exc.headers)


async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
    codes = {404: "not_found", 405: "method_not_allowed"}
    message = exc.detail if isinstance(exc.detail, str) else json.dumps(exc.detail)
    if exc.status_code == 400:  # FastAPI could not even decode the body
        problem = _json_problem(await request.body())
        if problem:
            return error_response(request, 400, "bad_json",
                                  f"The request body is not valid JSON: {problem}.")
    if exc.status_code == 404 and message == "Not Found":
        message = f"No such page or endpoint: {request.url.path}"
    return error_response(request, exc.status_code, codes.get(exc.status_code, "http_error"),
                          message, getattr(exc, "headers", None))


async def _validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
    errors = exc.errors()
    if any(e.get("loc", ("",))[0] == "body" for e in errors):
        problem = _json_problem(await request.body())
        if problem:
            return error_response(request, 400, "bad_json",
                                  f"The request body is not valid JSON: {problem}.")
    return error_response(request, 422, "invalid_request", "; ".join(
        f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in errors[:5]))


def _json_problem(body: bytes) -> str | None:
    """Why `body` is not JSON (empty, not UTF-8, a syntax error), or None if it is."""
    if not body.strip():
        return "the body is empty; send {\"code\": \"...\"}"
    try:
        json.loads(body)
    except UnicodeDecodeError:
        return "it is not UTF-8 text"
    except ValueError as exc:
        return str(exc)
    return None


def install(app: FastAPI) -> None:
    """Register the handlers on an app."""
    # Starlette types a handler as taking any Exception; each of these takes its own kind,
    # which is the class it is registered for, so the narrower signature is the true one.
    app.add_exception_handler(ApiError, _api_error)  # type: ignore[arg-type]
    app.add_exception_handler(StarletteHTTPException, _http_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError,
                              _validation_error)  # type: ignore[arg-type]
