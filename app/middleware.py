"""The ASGI layer around every request: the Host check (app/services/hosts.py), header- and
body-size caps, a deadline for the body, security headers, request id, one JSON access-log
line, and a last-resort 500 so that no input can stop the server answering.

Written as plain ASGI (not BaseHTTPMiddleware) so it adds microseconds, not a task per request.

The log line (logger `gradstep.access`, one JSON object per request):
    {"request_id": "…", "method": "POST", "path": "/api/run", "status": 200,
     "duration_ms": 12.3, "outcome": "ok", "client": "127.0.0.1"}
`outcome` is the program's outcome for runs (ok, exception, refused, limit, crash) and
otherwise one of ok, client_error, rejected (413/429/503) or server_error.
"""
from __future__ import annotations

import json
import logging
import time
import uuid
from collections.abc import Sequence

import anyio
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gradstep.app.services.hosts import HostCheck

access_log = logging.getLogger("gradstep.access")
log = logging.getLogger("gradstep.app")

REJECTED = {403, 408, 413, 429, 431, 503}


def csp(frame_ancestors: str) -> str:
    """The Content-Security-Policy of every page: same-origin everything, no inline code."""
    return "; ".join([
        "default-src 'self'", "script-src 'self'", "style-src 'self'",
        "img-src 'self' data: blob:", "font-src 'self'", "connect-src 'self'",
        "worker-src 'self' blob:", "object-src 'none'", "base-uri 'none'",
        "form-action 'self'", f"frame-ancestors {frame_ancestors}"])


def security_headers(frame_ancestors: str) -> list[tuple[bytes, bytes]]:
    headers = {
        "content-security-policy": csp(frame_ancestors),
        "x-content-type-options": "nosniff",
        "referrer-policy": "strict-origin-when-cross-origin",
        "cross-origin-opener-policy": "same-origin",
        "permissions-policy": "camera=(), microphone=(), geolocation=()",
    }
    # Older browsers ignore CSP frame-ancestors; X-Frame-Options covers the default case only,
    # since it cannot list other origins.
    if frame_ancestors.strip() == "'self'":
        headers["x-frame-options"] = "SAMEORIGIN"
    elif frame_ancestors.strip() == "'none'":
        headers["x-frame-options"] = "DENY"
    return [(k.encode(), v.encode()) for k, v in headers.items()]


def _json_error(status: int, code: str, message: str, request_id: str,
                extra: Sequence[tuple[bytes, bytes]] = ()) -> tuple[Message, Message]:
    body = json.dumps({"error": {"code": code, "message": message,
                                 "request_id": request_id}}).encode()
    start = {"type": "http.response.start", "status": status,
             "headers": [(b"content-type", b"application/json"),
                         (b"content-length", str(len(body)).encode()), *extra]}
    return start, {"type": "http.response.body", "body": body}


class GuardMiddleware:
    """Everything a request passes through before and after the routers."""

    def __init__(self, app: ASGIApp, *, max_body_bytes: int, frame_ancestors: str,
                 log_requests: bool = True, max_header_bytes: int = 16_384,
                 body_timeout: float = 10.0, hosts: HostCheck | None = None):
        self.app = app
        self.hosts = hosts
        self.max_body = max_body_bytes
        self.max_header = max_header_bytes
        self.body_timeout = body_timeout
        self.headers = security_headers(frame_ancestors)
        self.log_requests = log_requests

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        request_id = uuid.uuid4().hex[:16]
        state = scope.setdefault("state", {})
        state["request_id"] = request_id
        status = {"code": 500, "sent": False}

        async def send_wrapped(message: Message) -> None:
            if message["type"] == "http.response.start":
                status["code"], status["sent"] = message["status"], True
                present = {k.lower() for k, _ in message.get("headers", [])}
                if b"content-security-policy" in present:   # a route's own framing policy
                    present.add(b"x-frame-options")
                message["headers"] = [*message.get("headers", []),
                                      *(h for h in self.headers if h[0] not in present),
                                      (b"x-request-id", request_id.encode())]
            await send(message)

        try:
            body_receive = await self._read_body(scope, receive, request_id, send_wrapped)
            if body_receive is not None:
                await self.app(scope, body_receive, send_wrapped)
        except Exception:
            log.exception("unhandled error in %s %s (request %s)", scope["method"],
                          scope["path"], request_id)
            if not status["sent"]:
                for message in _json_error(500, "internal_error", "The server failed on this "
                                           "request; it has been logged.", request_id):
                    await send_wrapped(message)
        finally:
            if self.log_requests:
                self._log(scope, state, status["code"], started, request_id)

    async def _read_body(self, scope: Scope, receive: Receive, request_id: str, send: Send):
        """Read the whole body (it is small by policy) within `body_timeout` seconds, or
        answer 413/431/408; returns a replaying `receive`, or None when the answer has been
        sent already."""
        headers = scope.get("headers", [])
        if self.hosts is not None:
            for key, value in headers:
                if key == b"host" and not self.hosts.allows(value.decode("latin-1")):
                    await self._refuse(403, "host_not_allowed",
                                       self.hosts.refusal(value.decode("latin-1")),
                                       request_id, send)
                    return None
        # The server bounds the head as it reads it (app/http_protocol.py); this holds under
        # any server, and counts what the app is handed.
        if sum(len(k) + len(v) for k, v in headers) > self.max_header:
            await self._refuse(431, "headers_too_large", f"The request's headers are over the "
                               f"{self.max_header}-byte limit.", request_id, send)
            return None
        declared = dict(headers).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_body:
            await self._too_large(request_id, send)
            return None
        chunks: list[bytes] = []
        with anyio.move_on_after(self.body_timeout) as deadline:
            if not await self._receive_into(chunks, receive, request_id, send):
                return None
        if deadline.cancelled_caught:
            # A body trickled in a byte at a time holds a connection and its buffer.
            await self._refuse(408, "body_timeout", f"The request body did not arrive within "
                               f"{self.body_timeout:g} s.", request_id, send)
            return None
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()     # after the body: wait for the disconnect
        return replay

    async def _receive_into(self, chunks: list[bytes], receive: Receive, request_id: str,
                            send: Send) -> bool:
        """Collect the body's chunks; False when the client left or the body is too large
        (the 413 has been sent)."""
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return False
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                await self._too_large(request_id, send)
                return False
            chunks.append(chunk)
            if not message.get("more_body"):
                return True

    async def _too_large(self, request_id: str, send: Send) -> None:
        await self._refuse(413, "body_too_large", f"The request body is over the "
                           f"{self.max_body}-byte limit.", request_id, send)

    @staticmethod
    async def _refuse(status: int, code: str, message: str, request_id: str,
                      send: Send) -> None:
        # Connection: close, since the rest of the request may still be on its way.
        for part in _json_error(status, code, message, request_id,
                                [(b"connection", b"close")]):
            await send(part)

    @staticmethod
    def _log(scope: Scope, state: dict, status: int, started: float, request_id: str) -> None:
        outcome = state.get("outcome")
        if outcome is None or status >= 400:
            outcome = ("ok" if status < 400 else "rejected" if status in REJECTED
                       else "client_error" if status < 500 else "server_error")
        client = scope.get("client")
        access_log.info(json.dumps({
            "request_id": request_id, "method": scope["method"], "path": scope["path"],
            "status": status, "duration_ms": round((time.perf_counter() - started) * 1000, 2),
            "outcome": outcome, "client": client[0] if client else None}))
