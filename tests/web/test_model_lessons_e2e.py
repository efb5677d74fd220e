"""The lessons on backpropagation through time and on attention in real Chromium, in English
and Chinese at 1440x900 and 1280x720: the right predictions are judged right against the
engine's own numbers, the pointers land on the steps the text talks about, and the picture
shows one group per call of the cell."""
from __future__ import annotations

import pytest
from player_page import open_lesson

from gradstep.app.services.lessons import load_lessons

pytestmark = pytest.mark.browser
LESSONS = {lesson.id: lesson for lesson in load_lessons()}
CASES = [(lang, size) for lang in ("en", "zh") for size in ((1440, 900), (1280, 720))]
IDS = [f"{lang}-{w}x{h}" for lang, (w, h) in CASES]


def current(pg) -> dict:
    return pg.evaluate("""() => { const m = document.querySelector('[data-gs-player]').gsPlayer
        .player.model; return m.trace.events[m.index]; }""")


def answer_every_question(page, lesson_id):
    """Give each question its right answer; return the verdicts."""
    verdicts = []
    for k, q in enumerate(LESSONS[lesson_id].questions):
        box = page.locator("[data-question]").nth(k)
        if q.choices:
            box.locator(f'[data-choice="{q.answer}"]').click()
        else:
            box.locator(".typed-answer").fill(str(q.answer))
        box.locator(".check").click()
        verdicts.append(box.get_attribute("data-verdict"))
    return verdicts


@pytest.mark.parametrize("lang,size", CASES, ids=IDS)
def test_backprop_through_time(page, lang, size):
    open_lesson(page, "backprop-through-time", lang, size)
    assert answer_every_question(page, "backprop-through-time") == ["right"] * 3
    # the typed answer is what the program printed
    assert current(page)["text"] == "tensor([[6.]])\n"
    # the gradient that reaches h0 is 0.5 cubed, handed on by step 0's product with w_hh
    page.click('[data-watch="0"]')
    event = current(page)
    assert event["kind"] == "node_apply"
    assert [g["data"] for g in event["grads_out"]] == [[[0.125]], [[1.0]]]
    assert "[[0.125]]" in page.inner_text("#narration")
    # weight_hh's AccumulateGrad adds the three steps' shares at once
    page.click('[data-watch="1"]')
    event = current(page)
    assert event["kind"] == "accumulate" and event["after"]["data"] == [[6.0]]
    assert "[[6]]" in page.inner_text("#narration")
    titles = page.evaluate("""() => Array.from(document.querySelectorAll(
        '#graph svg g.gs-group > text, #graph svg g.gs-module text'))
        .map((t) => t.textContent.trim())""")
    for t in range(3):
        assert any(title.startswith(f"rnn @ t={t} · RNNCell") for title in titles), titles


@pytest.mark.parametrize("lang,size", CASES, ids=IDS)
def test_attention(page, lang, size):
    open_lesson(page, "attention", lang, size)
    assert answer_every_question(page, "attention") == ["right"] * 4
    assert current(page)["text"] == "None\n"
    # p.backward(v): the v·J panel shows softmax's Jacobian diag(p) - p pᵀ
    page.click('[data-watch="0"]')
    assert current(page)["kind"] == "backward_begin"
    panel = page.inner_text("#vjp")
    for number in ("0.1875", "-0.0625", "0.25"):
        assert number in panel.replace("−", "-"), panel
    # the softmax inside the attention, then the fused kernel without the weights
    page.click('[data-watch="1"]')
    event = current(page)
    assert event["op"] == "softmax" and event["output"]["shape"] == [1, 3, 3]
    page.click('[data-watch="2"]')
    event = current(page)
    assert event["op"] == "_scaled_dot_product_flash_attention_for_cpu"
    assert event["node"]["name"] == "ScaledDotProductFlashAttentionForCpuBackward0"


def test_a_wrong_prediction_is_told_the_engines_number(page):
    open_lesson(page, "backprop-through-time", "en", (1440, 900))
    box = page.locator("[data-question]").nth(1)
    box.locator('[data-choice="0"]').click()        # 0.5: one step's factor, not three
    box.locator(".check").click()
    assert box.get_attribute("data-verdict") == "wrong"
    assert "0.125" in box.locator(".verdict").inner_text()
    event = current(page)                           # h0's AccumulateGrad
    assert event["kind"] == "accumulate" and event["after"]["data"] == [[0.125]]
