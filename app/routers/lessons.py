"""The guided lessons: HTML pages at /lessons, JSON at /api/lessons."""
from __future__ import annotations

import json
from typing import Literal

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from gradstep.app.dependencies import (ClientDep, GoneDep, RateLimited, RunnerDep, SettingsDep,
                                      TemplatesDep)
from gradstep.app.errors import ApiError
from gradstep.app.schemas.errors import responses
from gradstep.app.schemas.lessons import Lesson, LessonRun, LessonSummary
from gradstep.app.services.lessons import (builtin_lessons, get_lesson, left_out_lessons,
                                           lesson_view, load_lessons, resolve_pointers,
                                           segments, summary)
from gradstep.app.services.pages import load_strings, negotiate_lang, sandbox_is_partial

router = APIRouter(tags=["lessons"])
Lang = Literal["en", "zh"]


def _found(lesson_id: str, lang: str, settings) -> dict:
    prev, lesson, nxt = get_lesson(lesson_id, settings.lessons_dir)
    if lesson is None:
        raise ApiError(404, "not_found", f"There is no lesson called {lesson_id!r}.")
    return lesson_view(prev, lesson, nxt, lang)


@router.get("/api/lessons", response_model=list[LessonSummary])
async def lessons(settings: SettingsDep, lang: Lang = "en") -> list[dict]:
    """List the lessons in order (id, title, summary)."""
    return [summary(lesson, lang) for lesson in load_lessons(settings.lessons_dir)]


@router.get("/api/lessons/{lesson_id}", response_model=Lesson, responses=responses(404))
async def lesson(lesson_id: str, settings: SettingsDep, lang: Lang = "en") -> dict:
    """One lesson: its text, program and "watch for" pointers."""
    return _found(lesson_id, lang, settings)


@router.get("/api/lessons/{lesson_id}/run", response_model=LessonRun,
            dependencies=[RateLimited], responses=responses(404, 429, 503))
async def lesson_run(lesson_id: str, runs: RunnerDep, client: ClientDep, settings: SettingsDep,
                     gone: GoneDep, lang: Lang = "en") -> Response:
    """Run a lesson's program; each pointer gets the `seq` of the step it lands on."""
    view = _found(lesson_id, lang, settings)
    answer = await runs.run(view["program"], client, gone=gone)
    events = (answer.data.get("trace") or {}).get("events", [])
    lesson = json.dumps(resolve_pointers(view, events), ensure_ascii=False).encode("utf-8")
    # the run's JSON is already encoded (and cached); splice it in rather than re-encode it
    return Response(b'{"lesson":' + lesson + b',"run":' + answer.body + b"}",
                    media_type="application/json")


def _page(request: Request, settings, templates, lang: str | None, name: str,
          status_code: int = 200, **context):
    chosen = negotiate_lang(lang, request.headers.get("accept-language"))
    context.update(lang=chosen, t=load_strings(settings.static_dir, chosen))
    response = templates.TemplateResponse(request, name, context, status_code=status_code)
    response.headers["Content-Language"] = "zh-Hans" if chosen == "zh" else "en"
    response.headers["Vary"] = "Accept-Language"
    return response


@router.get("/lessons", response_class=HTMLResponse)
async def lessons_page(request: Request, settings: SettingsDep, templates: TemplatesDep,
                       lang: str | None = None) -> HTMLResponse:
    """The lessons index."""
    chosen = negotiate_lang(lang, request.headers.get("accept-language"))
    items = [summary(lesson, chosen) for lesson in load_lessons(settings.lessons_dir)]
    return _page(request, settings, templates, lang, "pages/lessons.html", lessons=items,
                 left_out=left_out_lessons(settings.lessons_dir))


@router.get("/lessons/{lesson_id}", response_class=HTMLResponse,
            responses={404: {"description": "No such lesson: the index, with a note",
                             "content": {"text/html": {}}}})
async def lesson_page(lesson_id: str, request: Request, settings: SettingsDep,
                      templates: TemplatesDep, lang: str | None = None) -> HTMLResponse:
    """One lesson: explanation, the program in the player, and "watch for" pointers."""
    chosen = negotiate_lang(lang, request.headers.get("accept-language"))
    prev, lesson, nxt = get_lesson(lesson_id, settings.lessons_dir)
    if lesson is None:   # a person followed a stale link: show them every lesson instead
        items = [summary(one, chosen) for one in load_lessons(settings.lessons_dir)]
        return _page(request, settings, templates, lang, "pages/lessons.html", 404,
                     lessons=items, missing=lesson_id)
    view = lesson_view(prev, lesson, nxt, chosen)
    blocks = [segments(p) for p in view["paragraphs"]]
    passages = [segments(p["text"]) for p in view["passages"]]
    questions = [{**q, "segments": segments(q["text"])} for q in view["questions"]]
    # a teacher's lesson file is a program from elsewhere: without the OS layers it waits
    own = lesson.id not in {b.id for b in builtin_lessons()}
    wait_run = own and sandbox_is_partial(request.app.state.pool)
    return _page(request, settings, templates, lang, "pages/lesson.html", lesson=view,
                 blocks=blocks, passages=passages, questions=questions, wait_run=wait_run)
