"""A hand-written update loop is a loop (real Chromium, live server).

`w -= lr * w.grad` under `no_grad`, twenty times: the page finds its iterations as it does an
optimizer's, lists them in order, keeps the picker steady while stepping and ends on the last
one; the update is told as an in-place change of a leaf that still requires grad, drawn without
an arrow from `w` to itself; `w.grad` is called so; the plot's axes take the program's words.
"""
from __future__ import annotations

import re

import pytest
from player_page import open_program

pytestmark = pytest.mark.browser

PROGRAM = """import torch
import matplotlib.pyplot as plt
w = torch.tensor(0.0, requires_grad=True)
losses = []
for step in range(20):
    loss = (w - 3) ** 2
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
    w.grad.zero_()
    losses.append(loss.item())
print(w)
plt.plot(losses)
plt.xlabel("step")
plt.show()
"""


def open_sgd(pg, lang: str = "en"):
    return open_program(pg, PROGRAM, lang)


def walk(pg) -> list[dict]:
    """At every step: the event, the picker's value, the sentence and the graph's labels."""
    return pg.evaluate("""() => {
        const c = document.querySelector('[data-gs-player]').gsPlayer;
        const events = c.player.model.trace.events;
        const out = [];
        for (let i = 0; i < events.length; i++) {
          c.player.go(i);
          out.push({ event: events[i], picked: document.querySelector('#iteration').value,
                     sentence: document.querySelector('#narration').textContent,
                     graph: Array.from(document.querySelectorAll('#graph svg text'))
                       .map((t) => t.textContent).join(' | ') });
        }
        return out;
    }""")


def first_number(option: str) -> int:
    return int(re.search(r"\d+", option).group())


def test_iterations_are_listed_in_order_and_the_picker_follows_the_steps(page):
    open_sgd(page)
    options = page.locator("#iteration option").all_text_contents()
    numbers = [first_number(o) for o in options]
    assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers), options
    assert options[-1] == "iteration 20"
    assert any("summarised" in o for o in options)
    picked = [int(s["picked"]) for s in walk(page)]
    # steady while stepping: the picture never goes back to an earlier iteration
    assert picked == sorted(picked), picked
    page.click("#step-last")
    assert page.input_value("#iteration") == str(len(options) - 1)


def test_the_last_picture_is_the_last_iteration(page):
    open_sgd(page)
    page.click("#step-last")
    labels = page.evaluate("""() => Array.from(document.querySelectorAll('#graph svg text'))
        .map((t) => t.textContent)""")
    assert any(t.startswith("loss₂₀") for t in labels), labels
    assert not any(re.fullmatch(r"loss( .*)?", t) for t in labels), labels


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_update_is_an_in_place_change_of_a_leaf(page, lang):
    open_sgd(page, lang)
    steps = walk(page)
    updates = [s for s in steps if s["event"]["kind"] == "op" and s["event"]["op"] == "sub_"]
    assert updates
    for s in updates:
        if lang == "en":
            assert "still a leaf that requires grad" in s["sentence"], s["sentence"]
            assert "outside the graph" not in s["sentence"]
        else:
            assert "仍然是需要梯度的叶子张量" in s["sentence"], s["sentence"]
            assert "不在计算图中" not in s["sentence"]


def test_w_has_no_arrow_to_itself_and_w_grad_is_named(page):
    open_sgd(page)
    steps = walk(page)
    grads = [s for s in steps if s["event"]["kind"] == "tensor"
             and s["event"]["how"] == "grad"]
    assert grads and all(s["event"]["tensor"]["name"] == "w.grad" for s in grads)
    assert "w.grad" in steps[grads[0]["event"]["seq"]]["graph"]
    page.click("#step-last")
    # the box of w.grad shows what w.grad holds at the end (zeroed), not iteration 1's -6
    box = page.locator("#graph .node", has_text="w.grad").first.text_content()
    assert "-6" not in box and "data 0" in box, box
    # no "×6" on a loop from w to w: the update is not an arrow
    edges = page.evaluate("""() => Array.from(document.querySelectorAll('#graph g.edge'))
        .map((e) => e.querySelector('title') ? e.querySelector('title').textContent : e.id)""")
    assert not any(re.search(r"×\d", t) for t in page.locator("#graph svg text")
                   .all_text_contents())
    assert all("->" not in t or t.split("->")[0].strip() != t.split("->")[1].strip()
               for t in edges), edges


def test_the_plot_takes_the_programs_axis_words(page):
    open_sgd(page)
    titles = page.locator("#plot .axis-title").all_text_contents()
    assert titles[0] == "step"
    assert not any("printed" in t or "undefined" in t for t in titles), titles


AFTER_LOOP = """import torch
torch.manual_seed(0)
X = torch.randn(8, 2)
y = X @ torch.tensor([2.0, -1.0]) + 0.5
w = torch.zeros(2, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
for step in range(30):
    loss = ((X @ w + b - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
        b -= 0.1 * b.grad
    w.grad.zero_()
    b.grad.zero_()
print(w, b, loss.item())
"""


@pytest.mark.parametrize("lang, after", [("en", "after iteration 30"), ("zh", "第 30 次迭代之后")])
def test_the_code_after_the_loop_is_not_an_iteration_of_its_own(page, lang, after):
    open_program(page, AFTER_LOOP, lang)
    options = page.locator("#iteration option").all_text_contents()
    assert options[-2:] == [options[-2], after], options
    numbers = [first_number(o) for o in options]
    assert numbers == sorted(numbers), options
    page.click("#step-last")
    assert page.input_value("#iteration") == str(len(options) - 1)
