"""Locust users for the load test: learners running seed programs, and attackers sending
hostile ones, against /api/run. Each run is made unique with a comment so the server's
answer cache does not hide the sandbox's cost (a few repeats still hit the cache, as in class).

    locust -f tests/security/locustfile.py --headless -u 20 -r 10 -t 60s --host URL
"""
import random
import sys
from pathlib import Path

from locust import HttpUser, between, task

sys.path.insert(0, str(Path(__file__).resolve().parent))
from programs import HONEST, HOSTILE

MARKER = "/nonexistent-gradstep-marker"


class Learner(HttpUser):
    weight = 4
    wait_time = between(0.05, 0.3)

    @task
    def run_seed(self):
        code = random.choice(HONEST) + f"\n# {random.random()}\n"
        with self.client.post("/api/run", json={"code": code}, name="seed",
                              catch_response=True) as r:
            _judge(r, want_exit=None)


class Attacker(HttpUser):
    weight = 1
    wait_time = between(0.05, 0.3)

    @task
    def run_hostile(self):
        code = random.choice(HOSTILE).replace("{marker}", MARKER)
        code = code.replace("{{", "{").replace("}}", "}") + f"\n# {random.random()}\n"
        with self.client.post("/api/run", json={"code": code}, name="hostile",
                              catch_response=True) as r:
            _judge(r, want_exit=1)


def _judge(response, want_exit):
    """A 5xx other than a 503 busy, or a program that ran when it should not, is a failure."""
    if response.status_code == 200:
        exit_code = response.json()["result"]["exit_code"]
        if want_exit is not None and exit_code != want_exit:
            response.failure(f"hostile program exited {exit_code}")
    elif response.status_code == 503 or response.status_code == 429:
        response.success()        # the server shedding load with a clear answer is correct
    else:
        response.failure(f"HTTP {response.status_code}")
