"""A class behind one address, briefly: fifteen students from 127.0.0.1, each with its own
browser token, open lessons, run them and run an edited program, faster than real students
(1-2 s of thinking), against a server with its default rate limit and start-up runs. Every
request is answered (no 429: each browser has its own rate; no 503: each has its own share
of the slots and the line is long enough). The long form with 40 students and its figures
is bench/bench_classroom.py."""
from __future__ import annotations

import csv
import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from urllib.request import urlopen

import pytest

from live_server import LiveServer

ROOT = Path(__file__).resolve().parents[2]

if importlib.util.find_spec("locust") is None:
    pytest.skip("the classroom test needs locust: pip install -e '.[load]'",
                allow_module_level=True)


@pytest.mark.slow
def test_fifteen_students_behind_one_address_are_all_answered(tmp_path):
    students, seconds = 15, 20
    env = {"GRADSTEP_PRECOMPUTE": "1", "GRADSTEP_QUEUE_TIMEOUT": "60"}
    with LiveServer(env=env) as server:
        urlopen(server.url + "/readyz", timeout=30).read()
        cmd = [sys.executable, "-m", "locust", "-f", str(ROOT / "bench" / "classroom_locustfile.py"),
               "--headless", "-u", str(students), "-r", str(students), "-t", f"{seconds}s",
               "--host", server.url, "--csv", str(tmp_path / "class"), "--only-summary",
               "--stop-timeout", "60", "--exit-code-on-error", "0"]
        subprocess.run(cmd, check=True, timeout=seconds + 150, capture_output=True,
                       env={**os.environ, "CLASSROOM_THINK": "1,2"})
        assert server.proc.poll() is None, server.log_text()[-3000:]
    with open(tmp_path / "class_stats.csv", newline="") as f:
        rows = {r["Name"]: r for r in csv.DictReader(f)}
    failures = (tmp_path / "class_failures.csv").read_text()
    total = rows["Aggregated"]
    assert int(total["Request Count"]) >= students * 2, rows
    assert int(total["Failure Count"]) == 0, failures
    assert int(rows["lesson open"]["Request Count"]) >= students
