"""The loss plot: one labelled curve per training run, axis titles, tick labels inside the
picture, a log scale, and the plot in view without scrolling when a program has a loop; in
both languages at 1440x900 and 1280x720."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser
CASES = [(lang, size) for lang in ("en", "zh") for size in ((1440, 900), (1280, 720))]
IDS = [f"{lang}-{w}x{h}" for lang, (w, h) in CASES]


def open_page(pg, path, size):
    pg.set_viewport_size({"width": size[0], "height": size[1]})
    pg.goto(pg.base + path)
    pg.wait_for_selector('[data-gs-player][data-runs="1"]', state="attached", timeout=60000)


def texts_inside_the_picture(pg) -> list[str]:
    """Every label of the plot that sticks out of its SVG."""
    return pg.evaluate("""() => { const svg = document.querySelector('#plot svg');
        const box = svg.getBoundingClientRect();
        return [...svg.querySelectorAll('text')].filter((t) => { const r = t.getBoundingClientRect();
          return r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5
            || r.bottom > box.bottom + 0.5; }).map((t) => t.textContent); }""")


@pytest.mark.parametrize("lang,size", CASES, ids=IDS)
def test_two_learning_rates_are_two_labelled_curves(page, lang, size):
    open_page(page, f"/lessons/training-loop?lang={lang}", size)
    assert page.locator("#plot svg path.curve").count() == 2
    legend = page.locator("#plot .plot-legend li")
    assert legend.count() == 2
    first, second = legend.nth(0).inner_text(), legend.nth(1).inner_text()
    assert "1" in first and "2" in second
    assert "1764" in second            # the second run starts high: its own curve, no spike
    titles = page.locator("#plot svg .axis-title").all_text_contents()
    assert len(titles) == 2 and all(titles)
    assert ("loss" if lang == "en" else "损失") in titles
    assert texts_inside_the_picture(page) == []
    # losses from 1764 down to 3 span decades: log scale by default, and it can be switched
    log = page.locator("#plot-log")
    assert log.get_attribute("aria-pressed") == "true"
    ticks = page.locator("#plot svg .tick-y text").all_text_contents()
    assert "1000" in ticks and "10" in ticks
    log.click()
    assert page.locator("#plot-log").get_attribute("aria-pressed") == "false"
    assert texts_inside_the_picture(page) == []
    assert page.locator("#plot svg path.curve").count() == 2


@pytest.mark.parametrize("lang,size", CASES, ids=IDS)
def test_the_plot_is_in_view_without_scrolling_for_a_loop(page, lang, size):
    open_page(page, f"/?lang={lang}#code=" + LOOP_PROGRAM, size)
    plot = page.locator("#plot svg")
    assert plot.is_visible()
    box = plot.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= size[1], box
    assert page.evaluate("() => document.scrollingElement.scrollTop") == 0


def test_small_losses_keep_their_digits(page):
    open_page(page, "/?lang=en#code=" + SMALL_LOSSES, (1440, 900))
    ticks = page.locator("#plot svg .tick-y text").all_text_contents()
    assert ticks and all(not t.startswith("0") or t == "0" or t.startswith("0.") for t in ticks)
    assert texts_inside_the_picture(page) == []


LOOP_PROGRAM = ("import torch%0Aw%20%3D%20torch.tensor(5.0%2C%20requires_grad%3DTrue)%0A"
                "for%20i%20in%20range(20)%3A%0A%20%20%20%20loss%20%3D%20(w%20-%201)%20**%202%0A"
                "%20%20%20%20loss.backward()%0A%20%20%20%20with%20torch.no_grad()%3A%0A"
                "%20%20%20%20%20%20%20%20w%20-%3D%200.1%20*%20w.grad%0A"
                "%20%20%20%20w.grad.zero_()%0A")
SMALL_LOSSES = LOOP_PROGRAM.replace("(5.0", "(1.1")
