"""A run that finds every sandbox worker busy waits in line, and the page says so with its
place instead of failing; the learner's browser token makes it a client of its own behind
the shared address. In both languages, at 1440x900 and 1280x720."""
from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from urllib.request import Request, urlopen

import pytest

from live_server import LiveServer

pytestmark = pytest.mark.browser
QUICK = "import torch\nx = torch.ones(2, requires_grad=True)\n(x * 7).sum().backward()\nprint(x.grad)\n"
SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
WAITING = {"en": "place {n} in line", "zh": "第 {n} 位"}


@pytest.fixture(scope="module")
def one_worker():
    env = {"GRADSTEP_POOL_SIZE": "1", "GRADSTEP_QUEUE_TIMEOUT": "60",
           "GRADSTEP_RATE_LIMIT": "0"}
    with LiveServer(env=env) as live:
        yield live.url


def occupy(url: str, seconds: float, tag: str, state: str) -> threading.Thread:
    """Another client's run that holds the one worker for `seconds` (it sleeps), once the
    server says it is in `state` (running, or waiting in line)."""
    run_id = f"holder-{tag}-0123456789"
    code = f"import time\ntime.sleep({seconds})\n# {tag}\n"
    request = Request(url + "/api/run", json.dumps({"code": code, "run_id": run_id}).encode(),
                      {"Content-Type": "application/json"})
    thread = threading.Thread(target=lambda: urlopen(request, timeout=120).read())
    thread.start()
    deadline = time.monotonic() + 30
    while json.loads(urlopen(f"{url}/api/run/{run_id}/progress").read())["state"] != state:
        assert time.monotonic() < deadline, f"the holder never was {state}"
        time.sleep(0.05)
    return thread


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", [(1440, 900), (1280, 720)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_run_waiting_for_a_worker_shows_its_place(context, one_worker, lang, size):
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(f"{one_worker}/?lang={lang}")
    page.wait_for_selector("body.is-ready", timeout=30000)
    runs = int(page.get_attribute("[data-gs-player]", "data-runs") or 0)
    tag = f"{lang}{size[0]}"
    holders = [occupy(one_worker, 6, tag + "a", "running"),
               occupy(one_worker, 1, tag + "b", "waiting")]     # in line behind the first
    page.locator("#editor").fill(QUICK + f"# {tag}\n")
    page.click("#run")
    timer = page.locator("#run-timer")
    timer.filter(has_text=WAITING[lang].format(n=2)).wait_for(timeout=8000)
    status = page.locator("#run-status")
    assert status.is_visible() and status.bounding_box()["y"] < size[1]
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"waiting-{lang}-{size[0]}x{size[1]}.png"))
    # the line moves on, then the run is answered like any other
    page.wait_for_selector(f'[data-gs-player][data-runs="{runs + 1}"]', state="attached",
                           timeout=60000)
    page.click("#step-last")
    assert "[7., 7.]" in page.inner_text("#console")
    for thread in holders:
        thread.join(60)
    assert problems == []
    page.close()
