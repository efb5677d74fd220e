"""gzip for answers and files: the level, the size below which it is not worth it, and
whether a client takes it.

Run answers are compressed once, in the worker thread that encodes them, and cached
compressed (app/services/runs.py); everything else (pages, scripts, styles, other JSON) goes
through Starlette's GZipMiddleware with the same level (app/main.py).

Example:
    >>> accepts_gzip("gzip, deflate, br"), accepts_gzip("br;q=1, gzip;q=0"), accepts_gzip(None)
    (True, False, False)
"""
from __future__ import annotations

from starlette.datastructures import Headers
from starlette.middleware.gzip import GZipMiddleware, GZipResponder, IdentityResponder
from starlette.types import ASGIApp, Receive, Scope, Send

# Level 6 (zlib's default) gives nearly all of level 9's ratio on traces at a fraction of its
# time; see docs/api.md for the measured sizes.
GZIP_LEVEL = 6
# Below about a kilobyte, headers dominate and the gzip framing (18 bytes) eats the gain.
GZIP_MIN_BYTES = 1024


def accepts_gzip(accept_encoding: str | None) -> bool:
    """Whether an Accept-Encoding header admits gzip (named, or `*`, with a q above 0)."""
    if not accept_encoding:
        return False
    verdict = {}
    for item in accept_encoding.lower().split(","):
        coding, _, params = item.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        verdict[coding.strip()] = q > 0
    return verdict.get("gzip", verdict.get("x-gzip", verdict.get("*", False)))


class GzipMiddleware(GZipMiddleware):
    """Starlette's GZipMiddleware (compression in a thread for large bodies, pass-through of
    bodies that carry a Content-Encoding already), reading Accept-Encoding with its q values:
    Starlette's own test is `"gzip" in header`, which takes "gzip;q=0" for a yes."""

    def __init__(self, app: ASGIApp) -> None:
        super().__init__(app, minimum_size=GZIP_MIN_BYTES, compresslevel=GZIP_LEVEL)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        responder: ASGIApp
        if accepts_gzip(Headers(scope=scope).get("accept-encoding")):
            responder = GZipResponder(self.app, self.minimum_size,
                                      compresslevel=self.compresslevel,
                                      thread_minimum_size=self.thread_minimum_size,
                                      exclude_content_types=self.exclude_content_types)
        else:
            responder = IdentityResponder(self.app, self.minimum_size,
                                          exclude_content_types=self.exclude_content_types)
        await responder(scope, receive, send)
