"""GET /: the app page, in the learner's language."""
from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from gradstep.app.dependencies import SettingsDep, TemplatesDep
from gradstep.app.middleware import csp
from gradstep.app.services.embedding import refused_embedder
from gradstep.app.services.examples import list_examples
from gradstep.app.services.pages import flag, load_strings, negotiate_lang, sandbox_is_partial

router = APIRouter(tags=["pages"])


@router.get("/", response_class=HTMLResponse)
async def index(request: Request, settings: SettingsDep, templates: TemplatesDep,
                lang: str | None = None, embed: str | None = None,
                presenter: str | None = None) -> HTMLResponse:
    """The app: editor, graph and step controls."""
    chosen = negotiate_lang(lang, request.headers.get("accept-language"))
    own = f"{request.url.scheme}://{request.url.netloc}"
    embedder = refused_embedder(request.headers, settings.frame_ancestors, own)
    if embedder is not None:
        return frame_refused(request, templates, settings, chosen, embedder)
    context = {
        "lang": chosen, "t": load_strings(settings.static_dir, chosen),
        "examples": [{"id": e["id"], "title": e["title"]}
                     for e in list_examples(settings.examples_dir, chosen)],
        "embed": flag(embed), "presenter": flag(presenter),
        "frame_ancestors": settings.frame_ancestors,
        "sandbox_partial": sandbox_is_partial(request.app.state.pool),
    }
    response = templates.TemplateResponse(request, "pages/index.html", context)
    response.headers["Content-Language"] = "zh-Hans" if chosen == "zh" else "en"
    response.headers["Vary"] = "Accept-Language"
    return response


def frame_refused(request: Request, templates, settings, lang: str, origin: str) -> HTMLResponse:
    """A page any site may frame, saying why the app itself may not be framed there."""
    context = {"lang": lang, "t": load_strings(settings.static_dir, lang), "origin": origin,
               "url": str(request.url), "embed": True, "presenter": False}
    response = templates.TemplateResponse(request, "pages/frame_refused.html", context)
    # its own policy: framing allowed, nothing else loosened (the middleware keeps these)
    response.headers["Content-Security-Policy"] = csp("*")
    response.headers["Vary"] = "Sec-Fetch-Dest, Sec-Fetch-Site, Referer"
    return response
