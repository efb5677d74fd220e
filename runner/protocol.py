"""Framed messages over pipes between the app, the zygote and a run's child process.

A frame is one kind byte, a 4-byte big-endian length and the payload. Everything that comes
from a child is untrusted: readers cap the total bytes and parse only JSON.

Example:
    >>> import os; r, w = os.pipe(); write_frame(w, b"o", b"hi"); os.close(w)
    >>> FrameReader(r).read_available(1.0)
    [(b'o', b'hi')]
"""
from __future__ import annotations

import json
import os
import select
import struct

HEADER = struct.Struct(">cI")
STDOUT, STDERR, RESULT, REQUEST, PING, READY = b"o", b"e", b"r", b"q", b"p", b"y"
TRACE = b"t"        # zygote -> pool: a run's trace, the JSON bytes its child wrote, unchanged


def write_frame(fd: int, kind: bytes, payload: bytes) -> None:
    data = HEADER.pack(kind, len(payload)) + payload
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def write_json(fd: int, kind: bytes, obj) -> None:
    write_frame(fd, kind, json.dumps(obj, separators=(",", ":")).encode("utf-8"))


class FrameReader:
    """Incremental, non-blocking-friendly reader of frames from one fd."""

    def __init__(self, fd: int, max_frame: int = 64 * 1024 * 1024):
        self.fd, self.max_frame = fd, max_frame
        self.buf = bytearray()
        self.eof = False
        self.total = 0

    def _frames(self) -> list:
        out = []
        while len(self.buf) >= HEADER.size:
            kind, size = HEADER.unpack_from(self.buf)
            if size > self.max_frame:
                raise ValueError(f"frame of {size} bytes is over the {self.max_frame} cap")
            if len(self.buf) < HEADER.size + size:
                break
            out.append((kind, bytes(self.buf[HEADER.size:HEADER.size + size])))
            del self.buf[:HEADER.size + size]
        return out

    def read_available(self, timeout: float | None) -> list:
        """Wait up to `timeout` s for data; return the complete frames read (may be [])."""
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if ready:
            chunk = os.read(self.fd, 1 << 16)
            if not chunk:
                self.eof = True
            self.total += len(chunk)
            self.buf += chunk
        return self._frames()
