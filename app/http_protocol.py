"""The HTTP/1.1 connection handler `gradstep serve` gives uvicorn: its h11 one, plus a deadline
for a request's head (request line and headers) and a 431 for a head that is too large.

uvicorn starts its keep-alive timer only after a response; a connection that sends half a
request line, or one header byte every few seconds, would otherwise stay open for ever and
each one holds a socket and a buffer. The head has `GRADSTEP_HEADER_TIMEOUT` seconds from
its first byte (or from the connection, for the first request) to arrive whole; then the
connection gets a 408 and is closed. Its size is bounded by h11's incomplete-event limit,
set to `GRADSTEP_MAX_HEADER_BYTES` (app/server.py); uvicorn answers an overflow with a plain
400, which this handler turns into the 431 that names the problem. The body has its own
deadline in app/middleware.py, where the ASGI app reads it.

Example:
    uvicorn.run(app, http=DeadlineH11Protocol, h11_max_incomplete_event_size=16384)
"""
from __future__ import annotations

import asyncio

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from gradstep.app.settings import get_settings

LINGER_SECONDS = 2.0


def _plain_answer(status: int, reason: str, text: str) -> bytes:
    body = text.encode()
    return (f"HTTP/1.1 {status} {reason}\r\ncontent-type: text/plain; charset=utf-8\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n").encode() + body


class DeadlineH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline and a clear status for the request head."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.head_timeout = get_settings().header_timeout
        self.head_timer: asyncio.TimerHandle | None = None
        self.lingering: asyncio.TimerHandle | None = None

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._arm_head_timer()

    def data_received(self, data: bytes) -> None:
        if self.lingering is not None:
            return                          # the rest of a refused head: read and dropped
        super().data_received(data)
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self._arm_head_timer()          # a head has begun (or the next one may)
        else:
            self._disarm_head_timer()

    def on_response_complete(self) -> None:
        # Between requests uvicorn's keep-alive timer watches the connection; ours restarts
        # with the first byte of the next head (data_received).
        self._disarm_head_timer()
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_head_timer()
        if self.lingering is not None:
            self.lingering.cancel()
        super().connection_lost(exc)

    def send_400_response(self, msg: str) -> None:
        if self._head_overflowed():
            self.logger.warning("Request head over the size limit.")
            self.transport.write(_plain_answer(
                431, "Request Header Fields Too Large",
                "The request's headers are larger than this server accepts."))
            self._close_after_linger()
            return
        super().send_400_response(msg)

    def _head_overflowed(self) -> bool:
        buffered, _ = self.conn.trailing_data
        return len(buffered) > self.conn._max_incomplete_event_size

    def _close_after_linger(self) -> None:
        # Closing a socket with unread bytes in it makes the kernel send a reset, which can
        # destroy the answer before the client reads it. So: end our side (FIN after the
        # answer), drop what still arrives for a moment, then close (nginx's lingering close).
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.lingering = self.loop.call_later(LINGER_SECONDS, self.transport.close)

    def _arm_head_timer(self) -> None:
        if self.head_timer is None and self.timeout_keep_alive_task is None:
            self.head_timer = self.loop.call_later(self.head_timeout, self._head_timed_out)

    def _disarm_head_timer(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def _head_timed_out(self) -> None:
        self.head_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.write(_plain_answer(
                408, "Request Timeout",
                f"The request's headers did not arrive within {self.head_timeout:g} s."))
            self.transport.close()
