"""How fast the page draws a graph and repaints a step, at 200, 500 and 2,000 boxes.

    python bench/bench_graph.py                    # starts a server and Chromium, then stops both
    python bench/bench_graph.py --boxes 200 500 2000 --draws 5 --steps 300

"Draw" starts once the run's answer is in the page (it is fetched from the server first and
handed to the player, so the network and the sandbox are not counted) and ends when the
browser has done the style and layout of the new picture: parsing the SVG, indexing it, the
value rows, the first step's classes and overlay, forced by reading a size. "Step" is one
→ key on that graph: the fold of one event and the repaint of the graph and panels, forced
the same way. Targets: a 2,000-box graph drawn well under a second, a step within a frame
(16 ms). The program is bench_ui.py's chain of `y * 1.001`, one iteration.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
from pathlib import Path
from urllib.request import Request, urlopen

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_ui import ARGS, chain_program, start_server

DRAW = """async (answer) => {
  const c = document.querySelector('[data-gs-player]').gsPlayer;
  const t0 = performance.now();
  c.load(answer);
  document.getElementById('graph').getBoundingClientRect();
  document.body.offsetHeight;
  return {ms: performance.now() - t0, boxes: document.querySelectorAll('#graph .node').length};
}"""

STEPS = """(steps) => {
  const c = document.querySelector('[data-gs-player]').gsPlayer;
  const n = c.player.count();
  const out = [];
  c.player.first();
  for (let k = 0; k < steps; k++) {
    const t0 = performance.now();
    c.player.go((k + 1) % n);
    document.getElementById('graph').getBoundingClientRect();
    document.body.offsetHeight;
    out.push(performance.now() - t0);
  }
  return out;
}"""


def answer_for(base: str, boxes: int) -> dict:
    # a few boxes fewer than asked: the chain adds the leaf, its AccumulateGrad and the sum
    body = json.dumps({"code": chain_program(boxes - 4)}).encode()
    req = Request(base + "/api/run", data=body, headers={"Content-Type": "application/json"})
    with urlopen(req, timeout=300) as r:
        answer = json.loads(r.read())
    if not answer.get("layout"):
        raise SystemExit(f"no layout for {boxes} boxes: {answer.get('layout_note')}")
    return answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boxes", type=int, nargs="+", default=[200, 500, 2000])
    parser.add_argument("--draws", type=int, default=5)
    parser.add_argument("--steps", type=int, default=300)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    chromium = os.environ.get("GRADSTEP_CHROMIUM") or shutil.which("chromium")
    if not chromium:
        raise SystemExit("needs Chromium (or GRADSTEP_CHROMIUM)")
    proc, base = start_server()
    rows = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=ARGS)
            page = browser.new_page(viewport={"width": 1440, "height": 900})
            page.goto(f"{base}/?code={chain_program(2)}")
            page.wait_for_selector("body.is-ready", timeout=60000)
            for boxes in args.boxes:
                answer = answer_for(base, boxes)
                draws = [page.evaluate(DRAW, answer) for _ in range(args.draws)]
                steps = sorted(page.evaluate(STEPS, args.steps))
                rows.append((draws[0]["boxes"], statistics.median(d["ms"] for d in draws),
                             statistics.median(steps), steps[int(len(steps) * 0.95)]))
            browser.close()
    finally:
        proc.terminate()
        proc.wait(10)
    print("boxes   draw median   step median   step p95")
    for boxes, draw, step, p95 in rows:
        print(f"{boxes:5d}   {draw:8.1f} ms   {step:8.2f} ms   {p95:6.2f} ms")


if __name__ == "__main__":
    sys.exit(main())
