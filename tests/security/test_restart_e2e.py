"""The server restarted while a learner works (and while other clients keep it busy) loses
nothing they typed: the program lives in the page's URL fragment and the browser's storage,
so a reload after the restart brings back the same program and runs it."""
from __future__ import annotations

import json
import threading
from urllib.error import URLError
from urllib.request import Request, urlopen

import pytest

from live_server import LiveServer

pytestmark = pytest.mark.browser
TYPED = "import torch\nw = torch.tensor([3.0], requires_grad=True)\n(w ** 2).sum().backward()\nprint(w.grad)\n"


def background_load(url: str, stop: threading.Event) -> None:
    body = json.dumps({"code": "import torch\nprint(torch.ones(2) * 2)\n"}).encode()
    while not stop.is_set():
        try:
            urlopen(Request(url + "/api/run", data=body,
                            headers={"Content-Type": "application/json"}), timeout=10).read()
        except (URLError, OSError):
            pass                     # refused while the server is down: that is the point


def printed(page) -> str:
    """What the program printed: the console shows output up to the current step."""
    page.wait_for_selector("body.is-ready", state="attached", timeout=60000)
    page.click("#step-last")
    return page.inner_text("#console")


def test_restart_under_load_keeps_the_typed_program(browser):
    with LiveServer(env={"GRADSTEP_RATE_LIMIT": "0"}) as server:
        stop = threading.Event()
        load = [threading.Thread(target=background_load, args=(server.url, stop))
                for _ in range(3)]
        for t in load:
            t.start()
        context = browser.new_context()      # one profile: its local storage is shared
        try:
            page = context.new_page()
            page.goto(server.url + "/")
            # the page runs its first program on load; under load that run can still be in
            # flight here, and its answer would then be the one the counter below waits for
            page.wait_for_selector("body.is-ready", state="attached", timeout=60000)
            page.fill("#editor", TYPED)
            runs = int(page.get_attribute("[data-gs-player]", "data-runs") or 0)
            page.click("#run")
            page.wait_for_selector(f'[data-gs-player][data-runs="{runs + 1}"]', state="attached",
                                   timeout=30000)
            page.click("#step-last")
            assert "tensor([6.])" in page.inner_text("#console")
            page.wait_for_timeout(500)            # the fragment is written a moment later
            url = page.url
            assert "#" in url, "the program should be in the URL fragment"
            server.restart()
            page.reload()                         # the same URL, fragment and all
            assert page.url == url
            assert "tensor([6.])" in printed(page)
            assert page.input_value("#editor") == TYPED
            fresh = context.new_page()            # same browser, a new tab: local storage too
            fresh.goto(server.url + "/")
            assert "tensor([6.])" in printed(fresh)
            assert fresh.input_value("#editor") == TYPED
        finally:
            stop.set()
            for t in load:
                t.join(15)
            context.close()
