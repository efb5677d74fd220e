"""Checking a lesson file and saying exactly what is wrong, with the line: the parser behind
the built-in lessons, the teachers' own (GRADSTEP_LESSONS_DIR) and `gradstep lesson check`.

A lesson file is TOML (docs/lessons.md). TOML's own errors carry a line; for the rest (a
missing title, an unknown event kind, a Python syntax error in the program) the line is found
by scanning the file for the table or key concerned, since the parsed data has no positions.

Example:
    >>> problems = check_text('id = "x"\\norder = 1\\nprogram = "print(1)"\\n', "x.toml")[1]
    >>> str(problems[0])
    "x.toml:1: the [en] table is missing; expected a table with title, summary and body"
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field

from gradstep.runner.trace import KINDS

LANGS = ("en", "zh")
TOP_KEYS = {"id", "order", "program", "compare", "en", "zh", "watch", "passage", "question"}
TEXT_KEYS = ("title", "summary", "body")
WATCH_KEYS = {"event", "nth", "line", *LANGS}
QUESTION_KEYS = WATCH_KEYS | {"choices", "answer"}
COMPARES = ("exact", "numeric")
ID_PATTERN = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
HEADER = re.compile(r"^\s*(\[\[?)\s*([A-Za-z0-9_.-]+)\s*\]\]?")
KEY = re.compile(r"^\s*([A-Za-z0-9_-]+)\s*=")


@dataclass(frozen=True)
class Problem:
    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


@dataclass
class Lines:
    """Where tables and keys are in the text: (table, index) -> header line, keys -> line."""
    headers: dict = field(default_factory=dict)
    keys: dict = field(default_factory=dict)

    @classmethod
    def scan(cls, text: str) -> Lines:
        found = cls()
        table, index = "", 0
        counts: dict[str, int] = {}
        in_string = False
        for number, line in enumerate(text.splitlines(), 1):
            if line.count("'''") % 2 or line.count('"""') % 2:   # a multi-line string opens/closes
                was = in_string
                in_string = not in_string
                if was:
                    continue
            elif in_string:
                continue
            head = HEADER.match(line)
            if head:
                table = head.group(2)
                index = counts.get(table, 0)
                counts[table] = index + 1
                found.headers[(table, index)] = number
                continue
            key = KEY.match(line)
            if key:
                found.keys.setdefault((table, index, key.group(1)), number)
        return found

    def of(self, table: str = "", key: str | None = None, index: int = 0) -> int:
        if key is not None and (table, index, key) in self.keys:
            return self.keys[(table, index, key)]
        return self.headers.get((table, index), 1)


def check_text(text: str, name: str):
    """(data, problems) for the text of a lesson file; data is None when TOML fails to parse."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        match = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        line = int(match.group(1)) if match else 1
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc))
        return None, [Problem(name, line, f"this is not valid TOML: {message}")]
    lines = Lines.scan(text)
    problems: list[Problem] = []

    def say(line: int, message: str) -> None:
        problems.append(Problem(name, line, message))

    for key in data:
        if key not in TOP_KEYS:
            say(lines.of("", key), f"unknown key {key!r}; expected one of "
                + ", ".join(sorted(TOP_KEYS)))
    _check_top(data, lines, say)
    for lang in LANGS:
        _check_text_table(data.get(lang), lang, lines, say)
    watch = data.get("watch", [])
    if not isinstance(watch, list) or not watch:
        say(lines.of("", "watch"), "no [[watch]] pointer; expected at least one, each with "
            "event, en and zh")
    else:
        for i, pointer in enumerate(watch):
            _check_pointer(pointer, i, lines, say)
    for table, keys in (("passage", WATCH_KEYS), ("question", QUESTION_KEYS)):
        items = data.get(table, [])
        if not isinstance(items, list):
            say(lines.of("", table), f"{table} must be written [[{table}]]")
            continue
        for i, item in enumerate(items):
            _check_pointer(item, i, lines, say, table, keys)
            if table == "question" and isinstance(item, dict):
                _check_answer(item, i, lines, say)
    return data, sorted(problems, key=lambda p: p.line)


def _check_top(data: dict, lines: Lines, say) -> None:
    lesson_id = data.get("id")
    if lesson_id is None:
        say(1, "the key id is missing; expected id = \"a-short-name\" (lower case, digits, -)")
    elif not isinstance(lesson_id, str) or not ID_PATTERN.match(lesson_id):
        say(lines.of("", "id"), f"id {lesson_id!r} is not a short name; expected lower-case "
            "letters and digits joined by -, such as \"my-first-lesson\"")
    order = data.get("order")
    if order is None:
        say(1, "the key order is missing; expected order = a whole number (its place in the list)")
    elif not isinstance(order, int) or isinstance(order, bool):
        say(lines.of("", "order"), f"order is {order!r}; expected a whole number")
    program = data.get("program")
    if program is None:
        say(1, "the key program is missing; expected program = '''...''' holding the "
            "PyTorch program")
    elif not isinstance(program, str) or not program.strip():
        say(lines.of("", "program"), "program is empty; expected the PyTorch program as text")
    else:
        try:
            compile(program, "program", "exec")
        except SyntaxError as exc:
            # the program's first line is the one after program = ''' (a leading newline is
            # dropped by TOML)
            start = lines.of("", "program") + 1
            say(start + (exc.lineno or 1) - 1, f"the program does not parse as Python: {exc.msg}")
    compare = data.get("compare", "exact")
    if compare not in COMPARES:
        say(lines.of("", "compare"), f"compare is {compare!r}; expected \"exact\" or \"numeric\"")


def _check_text_table(table, lang: str, lines: Lines, say) -> None:
    if table is None:
        say(1, f"the [{lang}] table is missing; expected a table with title, summary and body")
        return
    if not isinstance(table, dict):
        say(lines.of("", lang), f"{lang} must be a table [{lang}] with title, summary and body")
        return
    for key in TEXT_KEYS:
        value = table.get(key)
        if value is None:
            say(lines.of(lang), f"[{lang}] has no {key}; expected {key} = \"...\"")
        elif not isinstance(value, str) or not value.strip():
            say(lines.of(lang, key), f"[{lang}] {key} is {value!r}; expected non-empty text")
    for key in table:
        if key not in TEXT_KEYS:
            say(lines.of(lang, key), f"[{lang}] has an unknown key {key!r}; expected title, "
                "summary and body")


def _check_answer(question: dict, i: int, lines: Lines, say) -> None:
    """A question is answered by choosing (`choices` and the index `answer`, from 0) or by
    typing (`answer` as text, no choices)."""
    where = f"[[question]] number {i + 1}"
    choices, answer = question.get("choices"), question.get("answer")
    if choices is None:
        if not isinstance(answer, str) or not answer.strip():
            say(lines.of("question", "answer" if "answer" in question else None, i),
                f"{where} needs answer = \"...\" (typed) or choices = [...] with answer = "
                "the index of the right one")
        return
    if (not isinstance(choices, list) or len(choices) < 2
            or not all(isinstance(c, str) and c.strip() for c in choices)):
        say(lines.of("question", "choices", i), f"{where}: choices must be a list of at least "
            "two texts")
        return
    if not isinstance(answer, int) or isinstance(answer, bool) or not 0 <= answer < len(choices):
        say(lines.of("question", "answer" if "answer" in question else None, i),
            f"{where}: answer is {answer!r}; expected the index of the right choice, "
            f"0 to {len(choices) - 1}")


def _check_pointer(pointer, i: int, lines: Lines, say, table: str = "watch",
                   keys: set = WATCH_KEYS) -> None:
    where = f"[[{table}]] number {i + 1}"
    if not isinstance(pointer, dict):
        say(lines.of("", table), f"{where} must be a table with event, en and zh")
        return
    event = pointer.get("event")
    if event is None:
        say(lines.of(table, index=i), f"{where} has no event; expected event = one of the "
            "trace's kinds, such as \"backward_begin\"")
    elif event not in KINDS:
        say(lines.of(table, "event", i), f"{where}: event {event!r} is not a kind of trace "
            "event; expected one of " + ", ".join(sorted(KINDS)))
    nth = pointer.get("nth", 1)
    if not isinstance(nth, int) or isinstance(nth, bool) or nth < 1:
        say(lines.of(table, "nth", i), f"{where}: nth is {nth!r}; expected a whole number "
            "from 1 (the nth event of that kind)")
    line = pointer.get("line")
    if line is not None and (not isinstance(line, int) or isinstance(line, bool) or line < 1):
        say(lines.of(table, "line", i), f"{where}: line is {line!r}; expected a line number "
            "of the program")
    for lang in LANGS:
        text = pointer.get(lang)
        if not isinstance(text, str) or not text.strip():
            say(lines.of(table, lang if lang in pointer else None, i),
                f"{where} has no {lang} sentence; expected {lang} = \"...\"")
    for key in pointer:
        if key not in keys:
            say(lines.of(table, key, i), f"{where} has an unknown key {key!r}; expected "
                + ", ".join(sorted(keys)))
