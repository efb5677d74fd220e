"""Teachers' own lessons: `gradstep lesson check FILE` names the line and what was expected for
each kind of malformed file, and the server shows the good files of GRADSTEP_LESSONS_DIR next to
the built-in lessons while a bad one is left out (never a crash, never hiding the others)."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "app"))

from gradstep.app.cli import main
from gradstep.app.main import create_app
from gradstep.app.services.lessons import builtin_lessons
from app_fakes import FakePool
from app_testing import make_settings

GOOD = '''id = "my-lesson"
order = 21
program = \'\'\'
import torch
x = torch.tensor(3.0, requires_grad=True)
y = x * x
y.backward()
print(x.grad)
\'\'\'

[en]
title = "Squares"
summary = "The gradient of x squared."
body = \'\'\'
Twice x.
\'\'\'

[zh]
title = "平方"
summary = "x 平方的梯度。"
body = \'\'\'
两倍的 x。
\'\'\'

[[watch]]
event = "accumulate"
en = "x.grad becomes 6."
zh = "x.grad 变成 6。"
'''


def check(tmp_path, text: str | bytes, capsys) -> tuple[int, str]:
    path = tmp_path / "lesson.toml"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    code = main(["lesson", "check", str(path)])
    out = capsys.readouterr()
    return code, out.out + out.err


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_a_good_file_is_fine(tmp_path, capsys):
    code, out = check(tmp_path, GOOD, capsys)
    assert code == 0
    assert "fine" in out and "my-lesson" in out


QUESTION = '\n[[question]]\nevent = "accumulate"\nen = "What is x.grad?"\nzh = "x.grad 是多少？"\n'

# (name, how to break the good file, the line it must name (a substring of it), words expected)
BROKEN = [
    ("toml-syntax", lambda t: t.replace('title = "Squares"', 'title = "Squares'),
     'title = "Squares', "not valid TOML"),
    ("missing-id", lambda t: t.replace('id = "my-lesson"\n', ""), None, "id is missing"),
    ("bad-id", lambda t: t.replace('"my-lesson"', '"My Lesson"'), 'id = "My Lesson"',
     "not a short name"),
    ("order-not-number", lambda t: t.replace("order = 21", 'order = "twenty"'),
     "order =", "whole number"),
    ("program-syntax", lambda t: t.replace("y = x * x", "y = x * (x"), "y = x * (x",
     "does not parse as Python"),
    ("empty-program", lambda t: re.sub(r"program = '''.*?'''\n", 'program = ""\n', t, flags=re.DOTALL),
     'program = ""', "program is empty"),
    ("missing-language", lambda t: re.sub(r"\[zh\].*?(?=\[\[watch\]\])", "", t, flags=re.DOTALL),
     None, "[zh] table is missing"),
    ("missing-title", lambda t: t.replace('title = "平方"\n', ""), "[zh]", "[zh] has no title"),
    ("title-not-text", lambda t: t.replace('title = "Squares"', "title = 3"), "title = 3",
     "expected non-empty text"),
    ("unknown-key", lambda t: t.replace('summary = "The gradient', 'sumary = "The gradient'),
     "sumary", "unknown key 'sumary'"),
    ("unknown-event", lambda t: t.replace('event = "accumulate"', 'event = "backwards"'),
     'event = "backwards"', "not a kind of trace event"),
    ("bad-nth", lambda t: t.replace('event = "accumulate"', 'event = "accumulate"\nnth = 0'),
     "nth = 0", "nth is 0"),
    ("pointer-without-sentence", lambda t: t.replace('zh = "x.grad 变成 6。"\n', ""),
     "[[watch]]", "no zh sentence"),
    ("no-pointer", lambda t: t.split("[[watch]]")[0], None, "no [[watch]] pointer"),
    ("answer-out-of-range", lambda t: t + QUESTION + 'choices = ["6", "9"]\nanswer = 2\n',
     "answer = 2", "expected the index of the right choice, 0 to 1"),
    ("question-without-answer", lambda t: t + QUESTION, "[[question]]", "needs answer"),
    ("passage-unknown-key",
     lambda t: t + '\n[[passage]]\nevent = "tensor"\nen = "a"\nzh = "b"\nstep = 3\n',
     "step = 3", "unknown key 'step'"),
    ("bad-compare", lambda t: t.replace("order = 21", 'order = 21\ncompare = "roughly"'),
     'compare = "roughly"', 'expected "exact" or "numeric"'),
]


@pytest.mark.parametrize("name,breaker,line_text,words", BROKEN, ids=[b[0] for b in BROKEN])
def test_each_kind_of_malformed_file_is_named_with_its_line(tmp_path, capsys, name, breaker,
                                                           line_text, words):
    text = breaker(GOOD)
    code, out = check(tmp_path, text, capsys)
    assert code == 1
    assert words in out, out
    line = line_of(text, line_text) if line_text else 1
    assert f"lesson.toml:{line}: " in out, out


def test_a_file_that_is_not_utf8_names_its_line(tmp_path, capsys):
    raw = GOOD.encode("utf-8").replace(b"Twice x.", b"Twice x \xe9.")     # a Latin-1 byte
    code, out = check(tmp_path, raw, capsys)
    assert code == 1
    assert f"lesson.toml:{line_of(GOOD, 'Twice x.')}: the file is not UTF-8" in out


def test_a_missing_file_is_an_error(tmp_path, capsys):
    assert main(["lesson", "check", str(tmp_path / "nothing.toml")]) == 1
    assert "no such file" in capsys.readouterr().err


def test_the_builtin_lessons_pass_the_check(capsys):
    from gradstep.app.services.lessons import LESSONS_DIR
    files = sorted(str(p) for p in LESSONS_DIR.glob("*.toml"))
    assert main(["lesson", "check", *files]) == 0
    assert capsys.readouterr().out.count("fine") == len(files)


@pytest.fixture
def teacher_dir(tmp_path):
    folder = tmp_path / "lessons"
    folder.mkdir()
    (folder / "good.toml").write_text(GOOD, encoding="utf-8")
    (folder / "broken.toml").write_text(GOOD.replace('id = "my-lesson"', 'id = "other"')
                                        .replace("[zh]", "[zh\n"), encoding="utf-8")
    (folder / "same-id.toml").write_text(GOOD.replace('"my-lesson"', '"scalar-backward"'),
                                         encoding="utf-8")
    return folder


def test_the_server_shows_a_teachers_good_lessons_and_leaves_out_bad_ones(teacher_dir, caplog):
    settings = make_settings(lessons_dir=teacher_dir)
    app = create_app(settings, pool_factory=lambda s: FakePool())
    with TestClient(app) as client:
        listed = client.get("/api/lessons").json()
        ids = [lesson["id"] for lesson in listed]
        assert "my-lesson" in ids
        assert len(ids) == len(builtin_lessons()) + 1      # the bad and the clashing are out
        assert ids.index("my-lesson") == len(ids) - 1      # order 21: after the built-in lessons
        page = client.get("/lessons/my-lesson?lang=zh")
        assert page.status_code == 200 and "平方" in page.text
        assert client.get("/lessons").status_code == 200
        assert client.get("/lessons/other").status_code == 404
    logged = caplog.text
    assert "broken.toml" in logged and "same-id.toml" in logged


def test_a_new_file_appears_without_a_restart(teacher_dir):
    settings = make_settings(lessons_dir=teacher_dir)
    app = create_app(settings, pool_factory=lambda s: FakePool())
    with TestClient(app) as client:
        before = len(client.get("/api/lessons").json())
        (teacher_dir / "second.toml").write_text(GOOD.replace('"my-lesson"', '"second"'),
                                                  encoding="utf-8")
        assert len(client.get("/api/lessons").json()) == before + 1


def test_a_lessons_dir_that_is_not_a_folder_keeps_the_builtin_lessons(tmp_path):
    settings = make_settings(lessons_dir=tmp_path / "nowhere")
    app = create_app(settings, pool_factory=lambda s: FakePool())
    with TestClient(app) as client:
        assert len(client.get("/api/lessons").json()) == len(builtin_lessons())
