"""GET /: the app page, in the learner's language."""
from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from app.dependencies import SettingsDep, TemplatesDep
from app.services.examples import list_examples
from app.services.pages import flag, load_strings, negotiate_lang

router = APIRouter(tags=["pages"])


@router.get("/", response_class=HTMLResponse)
async def index(request: Request, settings: SettingsDep, templates: TemplatesDep,
                lang: str | None = None, embed: str | None = None,
                presenter: str | None = None) -> HTMLResponse:
    """The app: editor, graph and step controls."""
    chosen = negotiate_lang(lang, request.headers.get("accept-language"))
    context = {
        "lang": chosen, "t": load_strings(settings.static_dir, chosen),
        "examples": [{"id": e["id"], "title": e["title"]}
                     for e in list_examples(settings.examples_dir, chosen)],
        "embed": flag(embed), "presenter": flag(presenter),
        "frame_ancestors": settings.frame_ancestors,
    }
    response = templates.TemplateResponse(request, "pages/index.html", context)
    response.headers["Content-Language"] = "zh-Hans" if chosen == "zh" else "en"
    response.headers["Vary"] = "Accept-Language"
    return response
