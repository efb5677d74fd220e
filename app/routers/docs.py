"""GET /docs: Swagger UI for the OpenAPI schema, under a CSP that still forbids unsafe-inline.

Swagger UI is vendored (static/vendor/swagger_ui/), so the page works offline, in a
classroom without internet. FastAPI's page starts it with one inline script; instead of
relaxing the policy we allow exactly that script by its hash, for this page only.
"""
from __future__ import annotations

import base64
import hashlib
import re
from functools import lru_cache

from fastapi import APIRouter, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse

from gradstep.app.middleware import csp

router = APIRouter(include_in_schema=False)
SWAGGER = "/static/vendor/swagger_ui"     # the version is in the file names: vendor/README.md


@lru_cache(maxsize=4)
def _page(title: str, frame_ancestors: str) -> tuple[bytes, str]:
    html = get_swagger_ui_html(openapi_url="/openapi.json", title=title,
                               swagger_js_url=f"{SWAGGER}/swagger-ui-bundle-5.35.0.js",
                               swagger_css_url=f"{SWAGGER}/swagger-ui-5.35.0.css",
                               swagger_favicon_url=f"{SWAGGER}/favicon-32x32.png").body
    html = bytes(html)      # the body is bytes already; Starlette types it as bytes | memoryview
    text = html.decode("utf-8")
    hashes = [f"'sha256-{base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()}'"
              for s in re.findall(r"<script>(.*?)</script>", text, re.S)]
    origins = sorted({m.group(1) for m in re.finditer(r'(?:src|href)="(https://[^/"]+)', text)})
    policy = csp(frame_ancestors)
    policy = policy.replace("script-src 'self'", " ".join(["script-src 'self'", *hashes,
                                                            *origins]))
    policy = policy.replace("style-src 'self'", " ".join(["style-src 'self'", *origins]))
    policy = policy.replace("img-src 'self' data: blob:",
                            " ".join(["img-src 'self' data: blob:", *origins]))
    return html, policy


@router.get("/docs")
async def swagger(request: Request) -> HTMLResponse:
    """The interactive API documentation."""
    html, policy = _page(request.app.title, request.app.state.settings.frame_ancestors)
    return HTMLResponse(html, headers={"Content-Security-Policy": policy})
