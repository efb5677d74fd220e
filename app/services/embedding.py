"""Explaining a refused frame: a page of another site that embeds gradstep while
GRADSTEP_FRAME_ANCESTORS does not allow it would otherwise show the browser's blank error page.

Browsers say that a request loads a frame (`Sec-Fetch-Dest: iframe`), whether its parent is of
another site (`Sec-Fetch-Site`) and, by default, the parent's origin (`Referer`). When these
show for certain that the CSP would refuse the frame, the server answers with a short page that
may be framed anywhere and says how to allow it. It holds text and a link that opens the app
in a new tab, nothing a frame could be used against. Without those headers the browser decides
alone, as before.

Example:
    >>> headers = {"sec-fetch-dest": "iframe", "sec-fetch-site": "cross-site",
    ...            "referer": "https://lms.example.edu/course/7"}
    >>> refused_embedder(headers, "'self'", "https://gradstep.example.edu")
    'https://lms.example.edu'
    >>> refused_embedder(headers, "'self' https://lms.example.edu", "https://gradstep.example.edu")
"""
from __future__ import annotations

import re
from urllib.parse import urlsplit

UNKNOWN = "another site"


def _origin(url: str) -> str | None:
    parts = urlsplit(url)
    if not parts.scheme or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc}".lower()


def _allows(source: str, origin: str, own: str) -> bool:
    """Does one CSP source expression match `origin`?"""
    if source == "*":
        return True
    if source == "'self'":
        return origin == own
    if source.endswith(":") and origin.startswith(source):          # a scheme, "https:"
        return True
    pattern = re.escape(source.lower().rstrip("/")).replace(r"\*", "[^/]*")
    if "://" not in source:
        pattern = r"[a-z][a-z0-9+.-]*://" + pattern
    return re.fullmatch(pattern + r"(:\d+)?", origin) is not None


def refused_embedder(headers, frame_ancestors: str, own_origin: str) -> str | None:
    """The origin (or "another site") that frames this request and that the CSP's
    `frame-ancestors` would refuse; None when the request is not such a frame, or when it
    cannot be told for certain."""
    if headers.get("sec-fetch-dest") != "iframe":
        return None
    site = headers.get("sec-fetch-site")
    if site not in ("cross-site", "same-site"):
        return None
    sources = frame_ancestors.split()
    parent = _origin(headers.get("referer") or "")
    if parent is None:                  # no referrer: certain only if no other origin is allowed
        if all(s in ("'self'", "'none'") for s in sources):
            return UNKNOWN
        return None
    if any(_allows(s, parent, own_origin.lower()) for s in sources):
        return None
    return parent
