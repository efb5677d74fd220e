"""Guided lessons: data files in `app/lessons/*.toml`, one per lesson, plus a teacher's own in
the folder GRADSTEP_LESSONS_DIR names; loaded here, checked by app/services/lesson_check.py.

A lesson file holds `id`, `order`, `program` (the runnable PyTorch snippet), a `[en]` and a
`[zh]` table (`title`, `summary`, `body`) and `[[watch]]` pointers. A pointer names a trace
event kind (`event`), optionally the `nth` occurrence (1-based) and/or the program `line`, and a
sentence in each language; `find_step` turns it into the index of the step to jump to. The
format is documented for teachers in docs/lessons.md.

A malformed built-in lesson is a bug and raises; a malformed file of a teacher's is left out
with a warning in the server log (and `gradstep lesson check FILE` says what is wrong), so it
never takes the server down or hides the other lessons.

Example:
    >>> lessons = load_lessons()
    >>> lessons[0].id, lessons[0].text("en").title
    ('scalar-backward', 'Scalar and non-scalar backward()')
"""
from __future__ import annotations

import functools
import logging
from dataclasses import dataclass
from pathlib import Path

from gradstep.app.services.lesson_check import check_text

log = logging.getLogger("gradstep.app")

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
class Question:
    """Predict, then step: a question and the step that shows its answer."""
    at: Watch                     # the step (event, nth, line) and the question's text
    choices: tuple[str, ...]      # empty: the answer is typed
    answer: int | str             # the index of the right choice, or the typed answer


@dataclass(frozen=True)
class Lesson:
    id: str
    order: int
    program: str
    compare: str                  # how its output is checked against PyTorch's (tests)
    texts: dict[str, LessonText]
    watch: tuple[Watch, ...]
    passages: tuple[Watch, ...] = ()      # the text, passage by passage, each bound to a step
    questions: tuple[Question, ...] = ()

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


def parse_file(path: Path) -> Lesson:
    """The lesson in `path`; LessonError listing every problem (file:line: what) otherwise."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        line = path.read_bytes()[:exc.start].count(b"\n") + 1
        raise LessonError(f"{path}:{line}: the file is not UTF-8 text; save it as UTF-8") \
            from None
    except OSError as exc:
        raise LessonError(f"{path}:1: cannot be read: {exc.strerror}") from exc
    data, problems = check_text(text, str(path))
    if problems:
        raise LessonError("\n".join(str(p) for p in problems))
    texts = {lang: LessonText(**{k: data[lang][k] for k in ("title", "summary", "body")})
             for lang in LANGS}
    def pointer(w: dict) -> Watch:
        return Watch(event=w["event"], nth=int(w.get("nth", 1)), line=w.get("line"),
                     text={lang: w[lang] for lang in LANGS})
    questions = tuple(Question(at=pointer(q), choices=tuple(q.get("choices") or ()),
                               answer=q["answer"]) for q in data.get("question", []))
    return Lesson(id=data["id"], order=int(data["order"]), program=data["program"],
                  compare=data.get("compare", "exact"), texts=texts,
                  watch=tuple(pointer(w) for w in data["watch"]),
                  passages=tuple(pointer(p) for p in data.get("passage", [])),
                  questions=questions)


def _sorted(lessons) -> tuple[Lesson, ...]:
    return tuple(sorted(lessons, key=lambda lesson: (lesson.order, lesson.id)))


@functools.lru_cache(maxsize=1)
def builtin_lessons() -> tuple[Lesson, ...]:
    """The lessons shipped with the app, sorted by `order`; raises LessonError on a bad one."""
    lessons = _sorted(parse_file(p) for p in LESSONS_DIR.glob("*.toml"))
    ids = [lesson.id for lesson in lessons]
    if len(set(ids)) != len(ids):
        raise LessonError(f"duplicate lesson ids in {LESSONS_DIR}")
    return lessons


def _signature(directory: Path) -> tuple:
    """What the folder holds now; a new or edited file changes it, so no restart is needed."""
    try:
        return tuple(sorted((p.name, p.stat().st_mtime_ns, p.stat().st_size)
                            for p in directory.glob("*.toml")))
    except OSError:
        return ()


@functools.lru_cache(maxsize=4)
def _own_lessons(directory: Path, signature: tuple) -> tuple[tuple[Lesson, ...],
                                                            tuple[tuple[str, str], ...]]:
    """The good lessons of the folder, and (file name, first problem) for each file left
    out: the index page tells the teacher, who may never read the server's log."""
    taken = {lesson.id for lesson in builtin_lessons()}
    found, left_out = [], []
    for path in sorted(directory.glob("*.toml")):
        try:
            lesson = parse_file(path)
        except LessonError as exc:
            log.warning("lesson file left out (gradstep lesson check %s):\n%s", path, exc)
            problems = str(exc).splitlines()
            first = problems[0] if problems else ""
            # the checker names the file by its full path: the page shows only its name
            first = first.replace(str(path), path.name)
            more = f" (+{len(problems) - 1})" if len(problems) > 1 else ""
            left_out.append((path.name, first + more))
            continue
        if lesson.id in taken:
            log.warning("lesson file left out: %s: id %r is already used by another lesson",
                        path, lesson.id)
            left_out.append((path.name, f"id {lesson.id!r} is already used by another lesson"))
            continue
        taken.add(lesson.id)
        found.append(lesson)
    return tuple(found), tuple(left_out)


def left_out_lessons(own_dir: Path | None = None) -> tuple[tuple[str, str], ...]:
    """(file name, what is wrong) for each lesson file of `own_dir` that is not shown."""
    if own_dir is None or not own_dir.is_dir():
        return ()
    return _own_lessons(own_dir, _signature(own_dir))[1]


def load_lessons(own_dir: Path | None = None) -> tuple[Lesson, ...]:
    """Every lesson, sorted by `order`: the built-in ones and the good files of `own_dir`."""
    if own_dir is None:
        return builtin_lessons()
    if not own_dir.is_dir():
        log.warning("GRADSTEP_LESSONS_DIR %s is not a folder; showing the built-in lessons",
                    own_dir)
        return builtin_lessons()
    return _sorted(builtin_lessons() + _own_lessons(own_dir, _signature(own_dir))[0])


def get_lesson(lesson_id: str, own_dir: Path | None = None
               ) -> tuple[Lesson | None, Lesson | None, Lesson | None]:
    """(previous, lesson, next) for an id; lesson is None when the id is unknown."""
    lessons = load_lessons(own_dir)
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


def _pointer_view(w: Watch, lang: str) -> dict:
    return {"event": w.event, "nth": w.nth, "line": w.line,
            "text": w.text.get(lang) or w.text["en"], "seq": None}


def lesson_view(prev: Lesson | None, lesson: Lesson, nxt: Lesson | None, lang: str) -> dict:
    """Everything a lesson page or /api/lessons/{id} shows, in one language."""
    return {
        **summary(lesson, lang),
        "paragraphs": lesson.text(lang).paragraphs(),
        "program": lesson.program,
        "watch": [_pointer_view(w, lang) for w in lesson.watch],
        "passages": [_pointer_view(p, lang) for p in lesson.passages],
        "questions": [{**_pointer_view(q.at, lang), "choices": list(q.choices),
                       "answer": q.answer} for q in lesson.questions],
        "prev": summary(prev, lang) if prev else None,
        "next": summary(nxt, lang) if nxt else None,
    }


def resolve_pointers(view: dict, events: list[dict]) -> dict:
    """A copy of `view` whose pointers (watch, passages, questions) carry the `seq` of the
    event each one lands on."""
    resolved = {}
    for key in ("watch", "passages", "questions"):
        items = []
        for pointer in view.get(key, []):
            spec = Watch(event=pointer["event"], nth=pointer["nth"], line=pointer["line"],
                         text={})
            index = find_step(events, spec)
            items.append({**pointer,
                          "seq": events[index].get("seq") if index is not None else None})
        resolved[key] = items
    return {**view, **resolved}
