"""The browser's own speed: median time to draw one step on a graph of about 500
boxes (target at most 16 ms, one frame), page ready on loopback (target at most 500 ms), and
the payload of the page's own JS and CSS.

    python bench/bench_ui.py              # starts a server and Debian's Chromium, then stops both
    python bench/bench_ui.py --boxes 1000

"One step" is what a learner's → key costs: the fold of one event, the graph's classes and
overlay, every panel, and the style and layout the browser does before it can paint (forced
here by reading a size). "Ready" is from navigation start until the first program has been run
and drawn (the `gradstep-ready` mark), with the server's answer cache warm.
"""
from __future__ import annotations

import argparse
import gzip
import os
import shutil
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[1]
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def chain_program(boxes: int) -> str:
    """A program whose graph has about `boxes` boxes: each `y * c` adds a node and a tensor."""
    ops = max(1, boxes // 2)
    return ("import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)\ny = x\n"
            f"for i in range({ops}):\n    y = y * 1.001\ny.sum().backward()\nprint(x.grad)\n")


def payload() -> dict:
    files = [p for p in (ROOT / "static").rglob("*") if p.suffix in (".js", ".css")
             and "vendor" not in p.parts]
    raw = sum(p.stat().st_size for p in files)
    gz = sum(len(gzip.compress(p.read_bytes(), 9)) for p in files)
    return {"files": len(files), "bytes": raw, "gzip_bytes": gz}


def start_server() -> tuple[subprocess.Popen, str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "GRADSTEP_RATE_LIMIT": "0", "GRADSTEP_ACCESS_LOG": "0"}
    proc = subprocess.Popen([sys.executable, "-m", "uvicorn", "--factory",
                             "gradstep.app.main:create_app", "--host", "127.0.0.1",
                             "--port", str(port), "--log-level", "warning"],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(600):
        if proc.poll() is not None:
            raise SystemExit(f"the server exited with {proc.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return proc, f"http://127.0.0.1:{port}"
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


STEP_TIMES = """(steps) => {
  const c = document.querySelector('[data-gs-player]').gsPlayer;
  const n = c.player.count();
  const out = [];
  c.player.first();
  for (let k = 0; k < steps; k++) {
    const i = k % n;
    const t0 = performance.now();
    c.player.go(i);
    document.getElementById('graph').getBoundingClientRect();
    document.body.offsetHeight;
    out.push(performance.now() - t0);
  }
  return {times: out, boxes: document.querySelectorAll('#graph .node').length, events: n};
}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boxes", type=int, default=500)
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--loads", type=int, default=7)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    chromium = os.environ.get("GRADSTEP_CHROMIUM") or shutil.which("chromium")
    if not chromium:
        raise SystemExit("needs Chromium (or GRADSTEP_CHROMIUM)")
    proc, base = start_server()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=ARGS)
            page = browser.new_page(viewport={"width": 1440, "height": 900})
            url = f"{base}/?code={quote(chain_program(args.boxes))}"
            page.goto(url)
            page.wait_for_selector("body.is-ready", timeout=120000)
            result = page.evaluate(STEP_TIMES, args.steps)
            if not result["events"]:
                raise SystemExit("the program's run left no trace to step through")
            times = sorted(result["times"])
            ready = []
            small = f"{base}/?code={quote(chain_program(10))}"
            for _ in range(args.loads):
                page.goto(small)
                page.wait_for_selector("body.is-ready", timeout=60000)
                ready.append(page.evaluate(
                    "() => performance.getEntriesByName('gradstep-ready')[0].startTime"))
            browser.close()
    finally:
        proc.terminate()
        proc.wait(10)
    step_ms = statistics.median(times)
    ready_ms = statistics.median(ready)
    size = payload()
    print(f"graph: {result['boxes']} boxes, {result['events']} steps")
    print(f"one step: median {step_ms:.2f} ms, p95 {times[int(len(times) * 0.95)]:.2f} ms "
          f"(target <= 16 ms) {'OK' if step_ms <= 16 else 'SLOW'}")
    print(f"page ready: median {ready_ms:.0f} ms (target <= 500 ms) "
          f"{'OK' if ready_ms <= 500 else 'SLOW'}")
    print(f"own JS+CSS: {size['files']} files, {size['bytes'] / 1024:.1f} KiB, "
          f"{size['gzip_bytes'] / 1024:.1f} KiB gzipped")


if __name__ == "__main__":
    sys.exit(main())
