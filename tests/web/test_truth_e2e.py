"""What the page says is true and in the program's names (real Chromium, live server).

The failing node of an in-place mistake, module parameters named by their paths, no trace id
or event kind as text, lesson pointers labelled for people, and errors headed by who raised
them, in English and Chinese. Every nn/optim program of tests/fixtures/nn_programs/ is played
step by step and the text of the sentence and the panels is checked at every step.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from player_page import open_program

from gradstep.app.services.lessons import load_lessons

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = sorted((ROOT / "tests" / "fixtures" / "nn_programs").glob("*.py"))
STRINGS = {lang: json.loads((ROOT / "static" / "i18n" / f"{lang}.json").read_text("utf-8"))
           for lang in ("en", "zh")}
KINDS = ("tensor", "op", "inplace", "grad_mode", "backward_begin", "node_apply", "accumulate",
         "graph_freed", "backward_end", "grad_reset", "optimizer_step", "stdout", "warning",
         "error", "elided", "end")
# event kinds a person would never write: any of them in the page's text is a leak
INTERNAL_KINDS = re.compile(r"\b(backward_begin|node_apply|graph_freed|backward_end|grad_reset|"
                            r"optimizer_step|grad_mode|elided|transform_begin|transform_step|"
                            r"transform_end|dual_level)\b")
INTERNAL_ID = re.compile(r"\b[tng]\d+\b")
PANELS = ("#narration", "#inspector", "#vjp", "#grads", "#console", "#pass-badge")

INPLACE = ("import torch\na = torch.tensor([1.0, 2.0], requires_grad=True)\nb = a.sigmoid()\n"
           "b.mul_(2)\nb.sum().backward()\n")


def texts_at_every_step(pg) -> list[dict]:
    """For each step: the event and the text of the sentence, panels and graph labels."""
    return pg.evaluate("""(panels) => {
        const c = document.querySelector('[data-gs-player]').gsPlayer;
        const events = c.player.model.trace.events;
        const out = [];
        for (let i = 0; i < events.length; i++) {
          c.player.go(i);
          const text = {};
          for (const sel of panels) {
            text[sel] = (document.querySelector(sel) || {}).textContent || '';
          }
          text.graph = Array.from(document.querySelectorAll('#graph svg text'))
            .map((t) => t.textContent).join(' ');
          out.push({ event: events[i], text });
        }
        return out;
    }""", list(PANELS))


def names_of(trace_events: list) -> dict:
    out, stack = {}, list(trace_events)
    while stack:
        e = stack.pop()
        stack.extend(e.get("carried") or [])
        t = e.get("tensor") if e["kind"] == "tensor" else e.get("output")
        if isinstance(t, dict):
            out.setdefault(t["id"], t["name"])
    return out


def test_inplace_error_is_marked_on_the_node_pytorch_raises_at(page):
    open_program(page, INPLACE)
    page.keyboard.press("End")
    page.focus("#graph")
    page.keyboard.press("End")
    error_node = page.locator("#graph .node.is-error")
    assert error_node.count() == 1
    assert "SigmoidBackward0" in error_node.text_content()
    steps = texts_at_every_step(page)
    error = next(s for s in steps if s["event"]["kind"] == "error")
    assert "SigmoidBackward0" in error["text"]["#narration"]
    assert "MulBackward0" not in error["text"]["#narration"]
    assert STRINGS["en"]["console_verbatim"] in error["text"]["#console"]


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_nn_program_says_names_never_ids_or_event_kinds(page, program):
    open_program(page, program.read_text())
    steps = texts_at_every_step(page)
    names = names_of([s["event"] for s in steps])
    unnamed = STRINGS["en"]["unnamed"]
    unnamed_short = STRINGS["en"]["unnamed_short"]
    for i, step in enumerate(steps):
        ev, text = step["event"], step["text"]
        for where, content in text.items():
            assert not INTERNAL_KINDS.search(content), (i, where, content[:200])
            assert not INTERNAL_ID.search(content), (i, where, content[:200])
        # the tensor this step is about: named in the sentence when the program names it
        about = {"accumulate": ev.get("tensor"), "grad_reset": ev.get("tensor"),
                 "backward_begin": (ev.get("roots") or [None])[0]}.get(ev["kind"])
        if about and names.get(about):
            assert names[about] in text["#narration"], (i, text["#narration"])
            assert unnamed not in text["#narration"], (i, text["#narration"])
        # every .grad listed belongs to a named tensor (parameters, leaves)
        assert f"{unnamed_short}.grad" not in text["#grads"], (i, text["#grads"])
    first = steps[0]["event"]
    if "nn." in program.read_text().split("for ")[0] and first["kind"] == "elided":
        assert first["reason"] == "library"


def test_sequential_parameters_and_the_library_step(page):
    program = ROOT / "tests" / "fixtures" / "nn_programs" / "seq_sgd.py"
    open_program(page, program.read_text())
    steps = texts_at_every_step(page)
    first = steps[0]
    assert first["event"]["reason"] == "library"
    assert "model[0].weight" in first["text"]["#inspector"]
    assert "(8, 4)" in first["text"]["#inspector"]
    last = steps[-1]["text"]
    assert "model[0].weight.grad" in last["#grads"] and "model[2].bias.grad" in last["#grads"]
    losses = [s["text"]["#narration"] for s in steps if s["event"]["kind"] == "backward_begin"]
    assert ["loss" in losses[0], "loss₂" in losses[1], "loss₃" in losses[2]] == [True] * 3
    page.click("#step-last")
    assert "model[0].weight" in " ".join(page.locator("#graph .node").all_text_contents())


LESSONS = load_lessons()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_lesson_pointers_are_labelled_for_people(page, lang):
    seen = set()
    for lesson in LESSONS:
        kinds = {w.event for w in lesson.watch}
        if not kinds - seen:
            continue
        seen |= kinds
        page.goto(f"{page.base}/lessons/{lesson.id}?lang={lang}")
        labels = page.locator(".watch-kind").all_inner_texts()
        assert len(labels) == len(lesson.watch)
        for label, pointer in zip(labels, lesson.watch):
            assert label == STRINGS[lang][f"watch_kind.{pointer.event}"]
            assert not INTERNAL_KINDS.search(label) and label not in KINDS
    assert {"backward_begin", "graph_freed", "error", "elided", "optimizer_step"} <= seen


ERRORS = [
    ("import torch\nx = torch.tensor([1.0])\ny = (x +\n", "console_from_python", "SyntaxError"),
    ("import torch\nx = torch.ones(2)\nprint(z)\n", "console_from_python", "NameError"),
    ("import torch\nx = torch.ones(2)\ny = torch.ones(3)\nz = x + y\n", "console_verbatim",
     "RuntimeError"),
    ("import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)\ny = x * 2\n"
     "big = torch.zeros(10000, 10000)\n", "console_from_gradstep", "LimitExceeded"),
]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("source,heading,type_name", ERRORS, ids=[e[2] for e in ERRORS])
def test_errors_are_headed_by_who_raised_them(page, lang, source, heading, type_name):
    open_program(page, source, lang)
    page.click("#step-last")
    console = page.inner_text("#console")
    assert STRINGS[lang][heading] in console
    assert f"{type_name}:" in console
    assert "main.py" not in console
    others = {"console_verbatim", "console_from_python", "console_from_gradstep"} - {heading}
    assert not any(STRINGS[lang][k] in page.inner_text("#console .console-error .lbl")
                   for k in others)
    if type_name == "LimitExceeded":
        # what was drawn before the stop keeps its names
        labels = " ".join(page.locator("#graph .node").all_text_contents())
        assert re.search(r"\bx\b", labels) and re.search(r"\by\b", labels)


HIGHER = ("import torch\nx = torch.tensor(2.0, requires_grad=True)\ny = x ** 3\n"
          "g, = torch.autograd.grad(y, x, create_graph=True)\ng2, = torch.autograd.grad(g, x)\n"
          "print(g, g2)\n")


def acc_ids(page) -> list:
    return page.evaluate("""() => Object.values(document.querySelector('[data-gs-player]')
        .gsPlayer.player.model.state.nodes).filter((n) => n.name === 'AccumulateGrad')
        .map((n) => n.id)""")


def test_higher_order_in_causal_order(page):
    open_program(page, HIGHER)
    steps = texts_at_every_step(page)
    built = [s for s in steps if s["event"]["kind"] == "op" and s["event"]["in_backward"]]
    assert built
    for s in built:     # PowBackward0's formula is at work while its nodes appear
        assert "PowBackward0" in s["text"]["#narration"]
        assert s["event"]["node"]["name"] in s["text"]["#narration"]
    # the seed is labelled in the graph
    assert "∂y/∂y" in steps[-1]["text"]["graph"]
    # autograd.grad's results arrive at x, and the v·J panel agrees with them at the end
    ends = [s for s in steps if s["event"]["kind"] == "backward_end"]
    assert len(ends) == 2
    assert "12" in ends[0]["text"]["#narration"] and ".grad" in ends[0]["text"]["#narration"]
    last = steps[-1]["text"]["#vjp"]
    assert STRINGS["en"]["vjp_pending"].split("{")[0] not in last
    assert STRINGS["en"]["vjp_match"] in last
    page.click("#step-last")
    assert page.inner_text("#vjp .vjp-grad") == "[12]"
    # at the node_apply that reaches x's AccumulateGrad, the result flows on to x itself
    idx = max(i for i, s in enumerate(steps) if s["event"]["kind"] == "node_apply")
    page.evaluate("(i) => document.querySelector('[data-gs-player]').gsPlayer.player.go(i)", idx)
    assert page.locator("#graph .is-flow-result").count() == 1
    # ... and nothing is drawn flowing into AccumulateGrad, which autograd.grad never runs
    # (that node_apply sends its gradients to x's AccumulateGrad alone)
    assert set(steps[idx]["event"]["to"]) <= set(acc_ids(page)) | {None}
    assert page.locator("#graph .is-flow-out").count() == 0
    assert "x.grad" not in page.inner_text("#grads")
