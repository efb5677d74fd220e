"""Guided lessons: data files in `app/lessons/*.toml`, one per lesson, loaded and checked here.

A lesson file holds `id`, `order`, `program` (the runnable PyTorch snippet), a `[en]` and a
`[zh]` table (`title`, `summary`, `body`) and `[[watch]]` pointers. A pointer names a trace
event kind (`event`), optionally the `nth` occurrence (1-based) and/or the program `line`, and a
sentence in each language; `find_step` turns it into the index of the step to jump to.

Example:
    >>> lessons = load_lessons()
    >>> lessons[0].id, lessons[0].text("en").title
    ('scalar-backward', 'Scalar and non-scalar backward()')
"""
from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass
from pathlib import Path

LANGS = ("en", "zh")
LESSONS_DIR = Path(__file__).resolve().parent.parent / "lessons"


class LessonError(ValueError):
    """A lesson file is malformed (missing language, unknown key ...)."""


@dataclass(frozen=True)
class LessonText:
    title: str
    summary: str
    body: str

    def paragraphs(self) -> list[str]:
        """The body split on blank lines, each paragraph's lines joined with spaces."""
        blocks = [b.strip() for b in self.body.strip().split("\n\n")]
        # Chinese wraps without spaces between lines; English needs one.
        return [_join_lines(b) for b in blocks if b]


@dataclass(frozen=True)
class Watch:
    event: str
    nth: int
    line: int | None
    text: dict[str, str]


@dataclass(frozen=True)
class Lesson:
    id: str
    order: int
    program: str
    compare: str                  # how its output is checked against PyTorch's (tests)
    texts: dict[str, LessonText]
    watch: tuple[Watch, ...]

    def text(self, lang: str) -> LessonText:
        return self.texts.get(lang) or self.texts["en"]


def _join_lines(block: str) -> str:
    out = ""
    for line in (ln.strip() for ln in block.splitlines()):
        if out and not (_is_cjk(out[-1]) and _is_cjk(line[:1])):
            out += " "
        out += line
    return out


def _is_cjk(ch: str) -> bool:
    return bool(ch) and ("\u2e80" <= ch <= "\u9fff" or "\u3000" <= ch <= "\u303f"
                         or "\uff00" <= ch <= "\uffef")


def _parse(path: Path) -> Lesson:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    try:
        texts = {lang: LessonText(**{k: data[lang][k] for k in ("title", "summary", "body")})
                 for lang in LANGS}
        watch = tuple(
            Watch(event=w["event"], nth=int(w.get("nth", 1)), line=w.get("line"),
                  text={lang: w[lang] for lang in LANGS})
            for w in data.get("watch", []))
        return Lesson(id=data["id"], order=int(data["order"]), program=data["program"],
                      compare=data.get("compare", "exact"), texts=texts, watch=watch)
    except (KeyError, TypeError) as exc:
        raise LessonError(f"{path.name}: missing or malformed field {exc}") from exc


@functools.lru_cache(maxsize=1)
def load_lessons(directory: Path = LESSONS_DIR) -> tuple[Lesson, ...]:
    """Every lesson, sorted by `order`; raises LessonError on a malformed file."""
    lessons = sorted((_parse(p) for p in directory.glob("*.toml")), key=lambda lesson: lesson.order)
    ids = [lesson.id for lesson in lessons]
    if len(set(ids)) != len(ids):
        raise LessonError(f"duplicate lesson ids in {directory}")
    return tuple(lessons)


def get_lesson(lesson_id: str) -> tuple[Lesson | None, Lesson | None, Lesson | None]:
    """(previous, lesson, next) for an id; lesson is None when the id is unknown."""
    lessons = load_lessons()
    for i, lesson in enumerate(lessons):
        if lesson.id == lesson_id:
            prev = lessons[i - 1] if i > 0 else None
            nxt = lessons[i + 1] if i + 1 < len(lessons) else None
            return prev, lesson, nxt
    return None, None, None


def find_step(events: list[dict], watch: Watch) -> int | None:
    """Index of the event a pointer names: the nth event of its kind (on its line, if given)."""
    seen = 0
    for index, event in enumerate(events):
        if event.get("kind") != watch.event:
            continue
        if watch.line is not None and event.get("line") != watch.line:
            continue
        seen += 1
        if seen == watch.nth:
            return index
    return None


def segments(paragraph: str) -> list[dict]:
    """A paragraph as plain, `code` and *emphasised* pieces, so a template can mark them up.

    >>> [(p["kind"], p["text"]) for p in segments("call `y.backward(v)`, *then* look")]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('text', 'call '), ('code', 'y.backward(v)'), ('text', ', '), ('em', 'then'),
     ('text', ' look')]
    """
    out: list[dict] = []
    for i, part in enumerate(paragraph.split("`")):
        if i % 2:                      # inside backticks: code, never emphasis
            out.append({"kind": "code", "text": part})
            continue
        for j, piece in enumerate(part.split("*")):
            if piece:
                out.append({"kind": "em" if j % 2 else "text", "text": piece})
    return out


def summary(lesson: Lesson, lang: str) -> dict:
    """The fields of a lesson that an index shows."""
    text = lesson.text(lang)
    return {"id": lesson.id, "order": lesson.order, "title": text.title,
            "summary": text.summary}


def lesson_view(prev: Lesson | None, lesson: Lesson, nxt: Lesson | None, lang: str) -> dict:
    """Everything a lesson page or /api/lessons/{id} shows, in one language."""
    return {
        **summary(lesson, lang),
        "paragraphs": lesson.text(lang).paragraphs(),
        "program": lesson.program,
        "watch": [{"event": w.event, "nth": w.nth, "line": w.line,
                   "text": w.text.get(lang) or w.text["en"], "seq": None}
                  for w in lesson.watch],
        "prev": summary(prev, lang) if prev else None,
        "next": summary(nxt, lang) if nxt else None,
    }


def resolve_pointers(view: dict, events: list[dict]) -> dict:
    """A copy of `view` whose pointers carry the `seq` of the event each one lands on."""
    watch = []
    for pointer in view["watch"]:
        spec = Watch(event=pointer["event"], nth=pointer["nth"], line=pointer["line"], text={})
        index = find_step(events, spec)
        watch.append({**pointer, "seq": events[index].get("seq") if index is not None else None})
    return {**view, "watch": watch}
