"""Locust users for the classroom load test: students behind one address (a school's NAT),
each in their own browser, working through the lessons.

    locust -f bench/classroom_locustfile.py --headless -u 40 -r 4 -t 300s --host URL

A student opens a lesson (the page, then its answer: "lesson open"), runs the lesson's
program as it stands ("run lesson"), steps through it (in the browser: no request, only
time), edits a number and runs the program again ("run edited"), with 2-8 s of thinking
between actions, as the page's own requests go: JSON, gzip accepted, the browser's learner
token in `X-Gradstep-Learner`. Any answer but a 200 is an error. `CLASSROOM_THINK="1,2"`
changes the thinking time (seconds, least and most), for a short smoke run.
"""
import os
import random
import re
import secrets

from locust import HttpUser, between, task

from gradstep.app.services.lessons import builtin_lessons

LESSONS = [(lesson.id, lesson.program) for lesson in builtin_lessons()]
NUMBER = re.compile(r"(?<![\w.])(\d+\.\d+)(?![\w.])")     # a float literal, not a name or int


def edited(program: str, rng: random.Random) -> str:
    """The program with one decimal number changed, as a student tries another value (or a
    new comment if it has none)."""
    numbers = list(NUMBER.finditer(program))
    if not numbers:
        return program + f"\n# try {rng.random():.6f}\n"
    m = rng.choice(numbers)
    value = float(m.group(1)) * rng.uniform(0.5, 1.5) or 0.5
    return program[:m.start()] + f"{value:.4f}" + program[m.end():]


THINK = [float(x) for x in os.environ.get("CLASSROOM_THINK", "2,8").split(",")]


class Student(HttpUser):
    wait_time = between(THINK[0], THINK[1])

    def on_start(self):
        self.rng = random.Random()
        self.client.headers.update({"X-Gradstep-Learner": secrets.token_hex(16),
                                    "Accept-Encoding": "gzip"})

    @task
    def lesson(self):
        lesson_id, program = self.rng.choice(LESSONS)
        self.expect(self.client.get(f"/lessons/{lesson_id}", name="lesson page",
                                    catch_response=True))
        self.expect(self.client.get(f"/api/lessons/{lesson_id}/run", name="lesson open",
                                    catch_response=True))
        self.think()
        self.post_run(program, "run lesson")
        self.think()                       # stepping through the answer: the browser's work
        self.post_run(edited(program, self.rng), "run edited")

    def think(self):
        self.wait()

    def post_run(self, code: str, name: str):
        body = {"code": code, "lang": "en", "run_id": secrets.token_hex(16)}
        self.expect(self.client.post("/api/run", json=body, name=name, catch_response=True))

    @staticmethod
    def expect(response):
        with response as r:
            if r.status_code != 200:
                r.failure(f"HTTP {r.status_code}: {r.text[:200]}")
            else:
                r.success()
