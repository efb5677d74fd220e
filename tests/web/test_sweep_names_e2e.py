"""Every variable a program names is a box with that name (real Chromium, live server).

A sweep over nn and optim programs of the kinds learners write after the first tutorial
(tests/fixtures/sweep_programs/: loss modules, module lists, RNN cells, hooks, custom
Functions, clipping, hand-written and library optimizers, CNNs, dropout, batchnorm,
embeddings, tied weights, detach, gradient accumulation). For each, the ground truth of which
tensor each variable holds comes from running the program with a line tracer
(tests/program_names.py), not from the recorder. At the step after each such assignment
the page must draw that tensor as a box labelled with the variable's name (a subscript for a
rebinding is fine), the names panel must point the name at it, and no text of the step may
call it an unnamed intermediate result; at the last step no leaf is drawn without a name.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import quote

import pytest

from program_names import bindings

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SWEEP = ROOT / "tests" / "fixtures" / "sweep_programs"
PROGRAMS = sorted(SWEEP.glob("*.py"))
STRINGS = json.loads((ROOT / "static" / "i18n" / "en.json").read_text("utf-8"))
SUBSCRIPT = re.compile(r"[₀-₉]+$")

CHECK = """([found, unnamed]) => {
  const c = document.querySelector('[data-gs-player]').gsPlayer;
  const events = c.player.model.trace.events;
  const made = (e) => {
    if (e.kind === 'op') return [e.output.id];
    if (e.kind === 'tensor') return [e.tensor.id];
    if (e.kind === 'elided') return (e.carried || []).flatMap(made);
    return [];
  };
  const at = {};
  events.forEach((e, i) => { for (const id of made(e)) if (!(id in at)) at[id] = i; });
  const out = [];
  for (const [line, name, tid, graph] of found) {
    if (!(tid in at)) continue;        // made in a summarised stretch: no step shows it
    const step = Math.min(at[tid] + 1, events.length - 1);
    c.player.go(step);
    const drawn = c.stage.drawn(tid);
    const box = c.svg.querySelector(`g.node[id="${CSS.escape(drawn)}"]`);
    // a constant outside the graph may be left undrawn (app/services/graph.py); drawn, it is named
    if (!graph && (!box || box.classList.contains('is-future'))) continue;
    const text = box && box.querySelector('text');
    const row = document.querySelector(`#names .names-row[data-name="${CSS.escape(name)}"]`);
    out.push({ line, name, tid, step,
      label: text ? text.textContent.trim() : null,
      module: !!(box && box.classList.contains('gs-module')),
      future: !!(box && box.classList.contains('is-future')),
      panel: row ? row.dataset.tensor : null,
      unnamed: document.querySelector('#narration').textContent.includes(unnamed)
        || document.querySelector('#inspector').textContent.includes(unnamed) });
  }
  return out;
}"""


def test_the_sweep_has_at_least_twenty_programs():
    assert len(PROGRAMS) >= 20


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_every_named_tensor_is_a_box_with_its_name(page, path):
    source = path.read_text()
    found = [[b.line, b.name, b.tensor, b.graph] for b in bindings(source)]
    assert any(b[3] for b in found), "the program names no tensor that requires grad"
    page.goto(f"{page.base}/?lang=en&code=" + quote(source))
    page.wait_for_selector('[data-gs-player][data-runs="1"]', state="attached", timeout=60000)
    seen = page.evaluate(CHECK, [found, STRINGS["unnamed"]])
    assert seen, "no assignment of the program was found among the steps"
    wrong = []
    for s in seen:
        problems = []
        if s["label"] is None or s["future"]:
            problems.append("no box")
        elif s["module"] or SUBSCRIPT.sub("", s["label"]) != s["name"]:
            problems.append(f"box labelled {s['label']!r}")
        if s["panel"] != s["tid"]:
            problems.append(f"names panel points at {s['panel']}")
        if s["unnamed"]:
            problems.append("called an intermediate result")
        if problems:
            wrong.append(f"line {s['line']} {s['name']} ({s['tid']}, step {s['step']}): "
                         + ", ".join(problems))
    # at the end, every leaf drawn (what requires grad and no op made) is one the program
    # can reach by a name: a parameter a library made and the program dropped is not drawn
    page.click("#step-last")
    leaves = page.evaluate("""() => Array.from(document.querySelectorAll(
        '#graph svg g.node.gs-leaf:not(.is-future), #graph svg g.node.gs-param:not(.is-future)'))
        .map((g) => (g.querySelector('text') || {}).textContent || '')""")
    wrong += [f"a leaf box labelled {label!r}" for label in leaves
              if label.strip() in ("", "tensor") or label.startswith("(")]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_unnamed_product_in_an_update_is_said_by_its_named_inputs(page, lang):
    # `w -= 0.01 * w.grad`: the product has no name, but what it multiplies does
    source = (SWEEP / "manual_sgd_linear.py").read_text()
    page.goto(f"{page.base}/?lang={lang}&code=" + quote(source))
    page.wait_for_selector('[data-gs-player][data-runs="1"]', state="attached", timeout=60000)
    said = page.evaluate("""() => {
        const c = document.querySelector('[data-gs-player]').gsPlayer;
        const events = c.player.model.trace.events;
        const i = events.findIndex((e) => e.kind === 'op' && e.line === 12 && e.op === 'mul');
        c.player.go(i);
        return document.querySelector('#narration').textContent;
    }""")
    words = json.loads((ROOT / "static" / "i18n" / f"{lang}.json").read_text("utf-8"))
    assert words["unnamed"] not in said, said
    assert re.search(r"mul\((w\.grad, 0\.01|0\.01, w\.grad)\)", said), said
