"""A bounded load test on loopback: locust drives a mix of seed and hostile programs at a
real server. No request may end in a 5xx (other than 503 busy with Retry-After) or a
connection error, hostile programs never succeed, the workers' memory stays flat, and no
process outlives the server. Quick form 15 s with 10 users; long form 60 s with 20."""
from __future__ import annotations

import csv
import importlib.util
import subprocess
import sys
import time
from pathlib import Path
from urllib.request import urlopen

import pytest

from conftest import LONG, scale
from live_server import LiveServer

HERE = Path(__file__).resolve().parent

# locust is the `load` dependency group, which ./dev.sh test and CI install; the `test` group
# alone runs everything else. Looked up, not imported: importing it here would let gevent patch
# this process (locust runs in a subprocess of its own).
if importlib.util.find_spec("locust") is None:
    pytest.skip("the load test needs locust: pip install -e . --group load", allow_module_level=True)
SERVER_ENV = {"GRADSTEP_RATE_LIMIT": "0", "GRADSTEP_POOL_SIZE": "2",
              "GRADSTEP_QUEUE_TIMEOUT": "30", "GRADSTEP_LIMIT_WALL_SECONDS": "2",
              "GRADSTEP_LIMIT_CPU_SECONDS": "1"}


def rss_kb(pids) -> int:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


def locust(url: str, users: int, seconds: int, prefix: Path) -> list[dict]:
    cmd = [sys.executable, "-m", "locust", "-f", str(HERE / "locustfile.py"), "--headless",
           "-u", str(users), "-r", str(users), "-t", f"{seconds}s", "--host", url,
           "--csv", str(prefix), "--only-summary", "--stop-timeout", "10",
           "--exit-code-on-error", "0"]
    subprocess.run(cmd, check=True, timeout=seconds + 120, capture_output=True)
    with open(f"{prefix}_stats.csv", newline="") as f:
        return list(csv.DictReader(f))


@pytest.mark.slow
def test_mixed_load_keeps_serving_and_leaks_nothing(tmp_path):
    users, seconds = scale(10, 20), scale(15, 60)
    with LiveServer(env=SERVER_ENV) as server:
        urlopen(server.url + "/readyz", timeout=30).read()
        before = rss_kb(server.descendants())
        rows = locust(server.url, users, seconds, tmp_path / "load")
        time.sleep(1)
        seen = server.descendants()
        after = rss_kb(seen)
        alive = server.proc.poll() is None
        assert alive, "the server died under load:\n" + server.log_text()[-3000:]
        urlopen(server.url + "/healthz", timeout=10).read()       # still serving
    total = next(r for r in rows if r["Name"] == "Aggregated")
    requests, failures = int(total["Request Count"]), int(total["Failure Count"])
    report = (f"{requests} requests in {seconds} s with {users} users: "
              f"{float(total['Requests/s']):.1f} req/s, p50 {total['50%']} ms, "
              f"p99 {total['99%']} ms, {failures} failures; worker RSS {before // 1024} -> "
              f"{after // 1024} MB")
    print(report)
    (tmp_path / "report.txt").write_text(report)
    assert requests > users, report
    assert failures == 0, report
    # fork-per-run: the long-lived processes must not grow with the number of runs
    assert after < before * 1.5 + 50 * 1024, report
    time.sleep(0.5)
    alive = [pid for pid in seen if Path(f"/proc/{pid}").exists()
             and Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"]
    assert alive == [], f"processes outlived the server: {alive}"
    if LONG:
        (Path(__file__).resolve().parents[2] / "artifacts").mkdir(exist_ok=True)
        (Path(__file__).resolve().parents[2] / "artifacts" / "load-report.txt").write_text(report)
