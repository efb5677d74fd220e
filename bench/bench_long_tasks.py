"""Does a big answer freeze the page? The main thread's long tasks from Run to a drawn picture.

    python bench/bench_long_tasks.py                 # a 2,000-box chain, 5 runs
    python bench/bench_long_tasks.py --boxes 2000 --runs 7

Starts a server and Chromium, opens the app, then runs a chain of `y * 1.001` with about
`--boxes` boxes (bench_ui.py's program) by the Run button, `--runs` times; the server's answer
cache is warmed first, so what is measured is the page: receiving and parsing the answer,
building the picture and drawing the first step. Chromium's `PerformanceObserver` of
`longtask` entries (tasks of 50 ms or more on the main thread) collects every long task from
the click until the picture is drawn and the page has been idle for a second. Printed: per
run the longest task, their total and count, and the time from the click to the drawn
picture; then the medians, with the load average before and after. Target: no task longer
than 200 ms for a 2,000-box answer.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import quote
from urllib.request import Request, urlopen

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_ui import ARGS, chain_program, start_server

OBSERVE = """() => {
  window.gsLong = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.gsLong.push({start: e.startTime, ms: e.duration});
  }).observe({type: 'longtask'});
}"""

# Run by the button, then wait for the run counter and a second with no long task.
RUN = """async (code) => {
  const root = document.querySelector('[data-gs-player]');
  const c = root.gsPlayer;
  const before = Number(root.dataset.runs || 0);
  c.editor.value = code;
  window.gsLong = [];
  const t0 = performance.now();
  document.querySelector('#run').click();
  while (Number(root.dataset.runs || 0) === before) await new Promise((r) => setTimeout(r, 20));
  const drawn = performance.now() - t0;
  for (;;) {
    const seen = window.gsLong.length;
    await new Promise((r) => setTimeout(r, 1000));
    if (window.gsLong.length === seen) break;
  }
  const tasks = window.gsLong.filter((e) => e.start >= t0).map((e) => e.ms);
  return {drawn, longest: Math.max(0, ...tasks), total: tasks.reduce((a, b) => a + b, 0),
          count: tasks.length, boxes: Object.keys(c.player.model.answer.layout.nodes).length};
}"""


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boxes", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    chromium = os.environ.get("GRADSTEP_CHROMIUM") or shutil.which("chromium")
    if not chromium:
        raise SystemExit("needs Chromium (or GRADSTEP_CHROMIUM)")
    code = chain_program(args.boxes - 4)
    proc, base = start_server()
    rows = []
    try:
        # warm the server's answer cache: the page's work is what is measured
        body = json.dumps({"code": code}).encode()
        req = Request(base + "/api/run", data=body, headers={"Content-Type": "application/json"})
        with urlopen(req, timeout=300) as r:
            size = len(r.read())
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=ARGS)
            page = browser.new_page(viewport={"width": 1440, "height": 900})
            page.goto(f"{base}/?code={quote(chain_program(2))}")
            page.wait_for_selector("body.is-ready", timeout=60000)
            page.evaluate(OBSERVE)
            start_load = load()
            for _ in range(args.runs):
                rows.append(page.evaluate(RUN, code))
                time.sleep(0.5)
            end_load = load()
            browser.close()
    finally:
        proc.terminate()
        proc.wait(10)
    print(f"{rows[0]['boxes']} boxes, answer {size / 1e6:.2f} MB; load average {start_load} "
          f"before, {end_load} after")
    print("run   longest task   long tasks total   count   click to drawn")
    for k, r in enumerate(rows, 1):
        print(f"{k:3d}   {r['longest']:9.0f} ms   {r['total']:13.0f} ms   {r['count']:5d}   "
              f"{r['drawn']:10.0f} ms")
    med = {key: statistics.median(r[key] for r in rows) for key in ("longest", "total", "drawn")}
    print(f"median {med['longest']:7.0f} ms   {med['total']:13.0f} ms           "
          f"{med['drawn']:10.0f} ms")


if __name__ == "__main__":
    sys.exit(main())
