"""The programs whose answers are made once, when the server starts: every lesson (the
built-in ones and a teacher's own) and every example of the menu.

A class opens the same lesson at the same moment; with these answers made ahead of time
(RunService.precompute, in the background) forty students cost forty lookups, and the
slowest lesson no longer meets a busy server's limits in front of a learner.

Example:
    >>> from gradstep.app.settings import Settings
    >>> names = [name for name, _ in start_up_programs(Settings(_env_file=None))]
    >>> names[0], any(name.startswith("example") for name in names)
    ("lesson 'scalar-backward'", True)
"""
from __future__ import annotations

from gradstep.app.services.examples import load_examples
from gradstep.app.services.lessons import load_lessons
from gradstep.app.settings import Settings


def start_up_programs(settings: Settings) -> list[tuple[str, str]]:
    """(name for the log, program) of each lesson, then each example; each program once."""
    programs = [(f"lesson {lesson.id!r}", lesson.program)
                for lesson in load_lessons(settings.lessons_dir)]
    programs += [(f"example {example['id']!r}", example["code"])
                 for example in load_examples(settings.examples_dir)]
    unique: dict[str, str] = {}
    for name, code in programs:
        unique.setdefault(code, name)
    return [(name, code) for code, name in unique.items()]
