"""Does a big answer freeze the page? The main thread's long tasks from Run to a drawn picture.

    python bench/bench_long_tasks.py                 # a 2,000-box chain, 5 runs
    python bench/bench_long_tasks.py --boxes 2000 --runs 9
    python bench/bench_long_tasks.py --compare OTHER_CHECKOUT   # e.g. `git worktree add`
    python bench/bench_long_tasks.py --lesson attention      # that lesson's page, not the biggest

Starts a server and Chromium, opens the app, then runs a chain of `y * 1.001` with about
`--boxes` boxes (bench_ui.py's program) by the Run button, `--runs` times; the server's answer
cache is warmed first, so what is measured is the page: receiving and parsing the answer,
building the picture and drawing the first step. Chromium's `PerformanceObserver` of
`longtask` entries (tasks of 50 ms or more on the main thread) collects every long task from
the click until the picture is drawn and the page has been idle for a second. Printed: per
run the longest task, their total and count, and the time from the click to the drawn
picture; then the medians, with the load average before and after. Target: no task longer
than 200 ms for a 2,000-box answer. `--compare` serves another checkout beside this one, each
in its own page, and takes turns between them run by run, so both meet the same noise.

Then the comparison of two big runs: the same chain and one with another factor run once
each, then the Compare button, `--runs` times, long tasks collected from the click until both
panes are drawn and the page has been idle for a second (the comparison is closed between
runs).

Then a lesson page, as a learner opens it: the lesson with the biggest run answer (or
`--lesson`), opened `--runs` times from the address bar, its long tasks collected from the
start of the page until its picture is drawn and the page has been idle for a second (the
observer is installed before the page's own scripts run).
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
from bench_api import start_server, stop
from bench_ui import ARGS, ROOT, chain_program

OBSERVE = """() => {
  window.gsLong = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.gsLong.push({start: e.startTime, ms: e.duration});
  }).observe({type: 'longtask'});
}"""

# What every measure below waits for once its picture is drawn: a second with no long task.
QUIET = """  for (;;) {
    const seen = window.gsLong.length;
    await new Promise((r) => setTimeout(r, 1000));
    if (window.gsLong.length === seen) break;
  }
"""

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
  /*QUIET*/
  const tasks = window.gsLong.filter((e) => e.start >= t0).map((e) => e.ms);
  return {drawn, longest: Math.max(0, ...tasks), total: tasks.reduce((a, b) => a + b, 0),
          count: tasks.length, boxes: Object.keys(c.player.model.answer.layout.nodes).length};
}""".replace("  /*QUIET*/\n", QUIET)


# The last two runs compared: wait for both panes' pictures, then for a second with no long
# task; the comparison is closed again for the next turn.
COMPARE = """async () => {
  window.gsLong = [];
  const t0 = performance.now();
  document.querySelector('#compare-open').click();
  const drawnPane = (w) => document.querySelector(`.compare-pane-${w} .compare-graph svg`);
  while (!drawnPane('a') || !drawnPane('b')) await new Promise((r) => setTimeout(r, 20));
  const drawn = performance.now() - t0;
  /*QUIET*/
  const tasks = window.gsLong.filter((e) => e.start >= t0).map((e) => e.ms);
  const boxes = document.querySelectorAll('.compare-pane-b .compare-graph g.node').length;
  document.querySelector('#compare-close').click();
  return {drawn, longest: Math.max(0, ...tasks), total: tasks.reduce((a, b) => a + b, 0),
          count: tasks.length, boxes};
}""".replace("  /*QUIET*/\n", QUIET)


# Installed before the page's scripts: every long task from the start of the page.
OBSERVE_EARLY = """window.gsLong = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.gsLong.push({start: e.startTime, ms: e.duration});
}).observe({type: 'longtask'});"""

# A lesson page opened: wait for its picture, then for a second with no long task.
LESSON = """async () => {
  const root = document.querySelector('[data-gs-player]');
  while (!Number(root.dataset.runs || 0)) await new Promise((r) => setTimeout(r, 20));
  const drawn = performance.now();
  /*QUIET*/
  const tasks = window.gsLong.map((e) => e.ms);
  return {drawn, longest: Math.max(0, ...tasks), total: tasks.reduce((a, b) => a + b, 0),
          count: tasks.length, boxes: root.querySelectorAll('#graph g.node').length};
}""".replace("  /*QUIET*/\n", QUIET)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def warm(base: str, code: str) -> int:
    """Run `code` once (the server's answer cache keeps it); the answer's size in bytes."""
    body = json.dumps({"code": code}).encode()
    req = Request(base + "/api/run", data=body, headers={"Content-Type": "application/json"})
    with urlopen(req, timeout=300) as r:
        return len(r.read())


def biggest_lesson(base: str) -> tuple[str, int]:
    """The lesson whose run answer is the biggest, and its size in bytes (runs each once)."""
    with urlopen(base + "/api/lessons", timeout=60) as r:
        ids = [lesson["id"] for lesson in json.load(r)]
    sizes = {}
    for lesson in ids:
        with urlopen(f"{base}/api/lessons/{lesson}/run", timeout=300) as r:
            sizes[lesson] = len(r.read())
    name = max(sizes, key=lambda k: sizes[k])
    return name, sizes[name]


def lesson_size(base: str, lesson: str) -> int:
    with urlopen(f"{base}/api/lessons/{lesson}/run", timeout=300) as r:
        return len(r.read())


def table(title: str, runs: list[dict], when: str) -> None:
    print(title)
    print(f"run   longest task   long tasks total   count   {when}")
    for k, r in enumerate(runs, 1):
        print(f"{k:3d}   {r['longest']:9.0f} ms   {r['total']:13.0f} ms   {r['count']:5d}   "
              f"{r['drawn']:10.0f} ms")
    med = {key: statistics.median(r[key] for r in runs) for key in ("longest", "total", "drawn")}
    print(f"median {med['longest']:7.0f} ms   {med['total']:13.0f} ms           "
          f"{med['drawn']:10.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boxes", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--compare", type=Path, help="another checkout, measured in turns")
    parser.add_argument("--lesson", help="the lesson page to open (default: the biggest run)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    chromium = os.environ.get("GRADSTEP_CHROMIUM") or shutil.which("chromium")
    if not chromium:
        raise SystemExit("needs Chromium (or GRADSTEP_CHROMIUM)")
    code = chain_program(args.boxes - 4)
    roots = {"this": ROOT, **({"other": args.compare.resolve()} if args.compare else {})}
    servers = {}
    rows: dict[str, list] = {name: [] for name in roots}
    lesson_rows: dict[str, list] = {name: [] for name in roots}
    compare_rows: dict[str, list] = {name: [] for name in roots}
    other_code = code.replace("1.001", "1.002")
    try:
        for name, root in roots.items():
            servers[name] = start_server(1, 2, root)
        size = {name: warm(base, code) for name, (_, base) in servers.items()}
        for _, base in servers.values():
            warm(base, other_code)
        first_base = next(iter(servers.values()))[1]
        lesson, lesson_bytes = ((args.lesson, lesson_size(first_base, args.lesson)) if args.lesson
                                else biggest_lesson(first_base))
        for _, base in servers.values():
            lesson_size(base, lesson)          # the lesson's answer cached on every server
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=ARGS)
            pages = {}
            for name, (_, base) in servers.items():
                page = pages[name] = browser.new_page(viewport={"width": 1440, "height": 900})
                page.goto(f"{base}/?code={quote(chain_program(2))}")
                page.wait_for_selector("body.is-ready", timeout=60000)
                page.evaluate(OBSERVE)
            start_load = load()
            for _ in range(args.runs):
                for name, page in pages.items():
                    page.bring_to_front()
                    rows[name].append(page.evaluate(RUN, code))
                    time.sleep(0.5)
            for page in pages.values():   # the two runs the comparison shows
                page.bring_to_front()
                page.evaluate(RUN, other_code)
                page.evaluate(RUN, code)
            for _ in range(args.runs):
                for name, page in pages.items():
                    page.bring_to_front()
                    compare_rows[name].append(page.evaluate(COMPARE))
                    time.sleep(0.5)
            for _ in range(args.runs):
                for name, (_, base) in servers.items():
                    page = browser.new_page(viewport={"width": 1440, "height": 900})
                    page.add_init_script(OBSERVE_EARLY)
                    page.goto(f"{base}/lessons/{lesson}")
                    lesson_rows[name].append(page.evaluate(LESSON))
                    page.close()
                    time.sleep(0.5)
            end_load = load()
            browser.close()
    finally:
        for proc, _ in servers.values():
            stop(proc)
    print(f"load average {start_load} before, {end_load} after")
    for name, runs in rows.items():
        table(f"\n{name} ({roots[name]}): {runs[0]['boxes']} boxes, answer "
              f"{size[name] / 1e6:.2f} MB", runs, "click to drawn")
    for name, runs in compare_rows.items():
        table(f"\n{name}: two such runs compared ({runs[0]['boxes']} boxes in a pane)", runs,
              "click to drawn")
    for name, runs in lesson_rows.items():
        table(f"\n{name}: the lesson page /lessons/{lesson} ({runs[0]['boxes']} boxes drawn, "
              f"answer {lesson_bytes / 1e6:.2f} MB)", runs, "page start to drawn")


if __name__ == "__main__":
    sys.exit(main())
