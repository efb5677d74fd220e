"""The guided lessons: complete in both languages, their programs print what PyTorch 2.13
printed (tests/lessons/expected, recorded by dev/record_lessons.py), and every "watch for"
pointer lands on a step of the kind it names in the program's real trace."""
import os
import shutil
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))

import fidelity  # noqa: E402

from gradstep.app.services.lessons import LANGS, find_step, load_lessons  # noqa: E402
from gradstep.runner import WorkerPool  # noqa: E402
from gradstep.runner.trace import KINDS  # noqa: E402

LESSONS = load_lessons()
EXPECTED = Path(__file__).resolve().parent / "expected"
GRADSTEP_RUN = [sys.executable, "-m", "gradstep", "run"]
IDS = [lesson.id for lesson in LESSONS]


def test_there_are_the_fourteen_lessons_of_the_issue_in_order():
    assert len(LESSONS) >= 14
    assert [lesson.order for lesson in LESSONS] == sorted({lesson.order for lesson in LESSONS})
    assert len(set(IDS)) == len(IDS)


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_both_languages_are_complete(lesson):
    for lang in LANGS:
        text = lesson.texts[lang]
        assert text.title.strip() and text.summary.strip() and len(text.paragraphs()) >= 1
        assert lesson.watch, "a lesson needs at least one 'watch for' pointer"
        for pointer in lesson.watch:
            assert pointer.text[lang].strip()
    # written, not left in English: the Chinese text uses Chinese characters
    assert any("\u4e00" <= ch <= "\u9fff" for ch in lesson.texts["zh"].body)
    assert lesson.texts["en"].title != lesson.texts["zh"].title


@pytest.fixture(scope="module")
def pool():
    """One warm sandbox worker for the module's runs, as the server runs lesson programs."""
    with WorkerPool(size=1) as workers:
        yield workers


def _as_case(lesson, tmp_path: Path) -> Path:
    """The lesson laid out as a fidelity case: cases/ID.py beside expected/ID.*."""
    (tmp_path / "cases").mkdir()
    case = tmp_path / "cases" / f"{lesson.id}.py"
    case.write_text(f"# compare: {lesson.compare}\n" + lesson.program, encoding="utf-8")
    shutil.copytree(EXPECTED, tmp_path / "expected")
    # the header line shifts the program by one line; the expected files hold no line numbers
    return case


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_program_prints_what_pytorch_printed(pool, lesson, tmp_path):
    case = _as_case(lesson, tmp_path)
    result = pool.run(case.read_text(encoding="utf-8"), filename=str(case), trace=False)
    problem = fidelity.judge(case, result.stdout, result.stderr, result.exit_code)
    assert problem is None, f"{lesson.id}: {problem}"


def test_a_lesson_prints_the_same_through_the_command(tmp_path):
    """The first lesson once more through `gradstep run`, a fresh interpreter, as a learner
    copying it to a terminal would run it."""
    case = _as_case(LESSONS[0], tmp_path)
    env = dict(os.environ)
    env["PYTHONPATH"] = str(TESTS.parent) + os.pathsep + env.get("PYTHONPATH", "")
    problem = fidelity.check_case(GRADSTEP_RUN, case, timeout=120, env=env)
    assert problem is None, f"{LESSONS[0].id}: {problem}"


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_every_pointer_lands_on_a_step_of_its_kind(pool, lesson):
    result = pool.run(lesson.program, filename=f"{lesson.id}.py", trace=True)
    events = result.trace["events"]
    # the "watch for" buttons, the passages of the text and the questions' answer steps
    for pointer in (*lesson.watch, *lesson.passages, *(q.at for q in lesson.questions)):
        assert pointer.event in KINDS, f"{pointer.event!r} is not a trace event kind"
        index = find_step(events, pointer)
        assert index is not None, (
            f"{lesson.id}: no {pointer.event} event #{pointer.nth}"
            + (f" on line {pointer.line}" if pointer.line else ""))
        event = events[index]
        assert event["kind"] == pointer.event
        if pointer.line is not None:
            assert event["line"] == pointer.line


def test_every_lesson_tells_its_story_with_two_questions_at_least():
    for lesson in LESSONS:
        assert len(lesson.questions) >= 2, lesson.id
        assert len(lesson.passages) >= 3, lesson.id
