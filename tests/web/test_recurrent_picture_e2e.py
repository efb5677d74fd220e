"""The picture of recurrent models (real Chromium, live server): every call of a cell in a
loop is a group of its own (`cell @ t=2`), for nn.RNNCell, nn.LSTMCell, nn.GRUCell and a
whole nn.LSTM called on chunks of a sequence; a whole nn.RNN or nn.GRU unrolls inside its
group, a group per time step (`rnn.l0 @ t=2`); an LSTM cell's gates are named in the page's
language; a float32 nn.LSTM layer is one MkldnnRnnLayerBackward0 box, as in PyTorch."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from player_page import open_program

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"
STRINGS = {lang: json.loads((ROOT / "static" / "i18n" / f"{lang}.json").read_text("utf-8"))
           for lang in ("en", "zh")}

CELL_LOOP = """import torch
from torch import nn
torch.manual_seed(0)
cell = nn.{cls}(2, 3)
xs = torch.randn(3, 1, 2)
h = torch.zeros(1, 3)
c = torch.zeros(1, 3)
for t in range(3):
    {call}
h.sum().backward()
"""
CALLS = {"RNNCell": "h = cell(xs[t], h)", "GRUCell": "h = cell(xs[t], h)",
         "LSTMCell": "h, c = cell(xs[t], (h, c))"}

LSTM_LOOP = """import torch
from torch import nn
torch.manual_seed(0)
lstm = nn.LSTM(input_size=2, hidden_size=3, num_layers=2)
chunks = torch.randn(2, 4, 1, 2)
state = None
for t in range(2):
    out, state = lstm(chunks[t], state)
out.sum().backward()
"""


def open_at_the_end(pg, source: str, lang: str = "en"):
    open_program(pg, source, lang)
    pg.click("#step-last")
    return pg


def group_titles(page) -> list[str]:
    """The frames' titles and the compact picture's module boxes."""
    return page.evaluate("""() => Array.from(document.querySelectorAll(
        '#graph svg g.gs-group > text, #graph svg g.gs-module text'))
        .map((t) => t.textContent.trim())""")


def box_labels(page) -> list[str]:
    """The first line of every box drawn (module boxes aside)."""
    return page.evaluate("""() => Array.from(document.querySelectorAll(
        '#graph svg g.node:not(.gs-module)')).map((g) => {
          const t = g.querySelector('text');
          return t ? t.textContent.trim() : '';
        })""")


def open_module(page, title_part: str) -> None:
    """Open the module whose box or frame title holds `title_part` (compact or folded)."""
    box = page.locator("#graph svg g.gs-module", has_text=title_part)
    if box.count():
        box.first.click()
    else:
        page.locator("#graph svg g.gs-group > text", has_text=title_part).first.click()
    page.wait_for_timeout(100)


@pytest.mark.parametrize("cls", sorted(CALLS))
def test_each_call_of_a_cell_in_a_loop_is_its_own_group(page, cls):
    open_at_the_end(page, CELL_LOOP.format(cls=cls, call=CALLS[cls]))
    titles = group_titles(page)
    for t in range(3):
        assert any(title.startswith(f"cell @ t={t} · {cls}") for title in titles), titles


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_lstm_cells_gates_are_named_in_the_pages_language(page, lang):
    open_at_the_end(page, CELL_LOOP.format(cls="LSTMCell", call=CALLS["LSTMCell"]), lang)
    open_module(page, "cell @ t=1")
    labels = box_labels(page)
    words = [STRINGS[lang][f"gate_{g}"] for g in "ifgo"]
    # one of each gate for the opened call at least; the node names stay PyTorch's
    for word in words:
        assert labels.count(word) >= 1, (word, labels)
    assert "SigmoidBackward0" in labels and "UnsafeSplitBackward0" in labels
    if lang == "zh":
        assert "input gate" not in labels
    # the gate's box is named for assistive technology in the page's language too
    names = page.evaluate("""() => Array.from(document.querySelectorAll('#graph svg g.node'))
        .map((g) => g.getAttribute('aria-label') || '')""")
    assert any(name.startswith(words[1]) for name in names), names


def test_a_float32_lstm_called_on_chunks_is_a_group_per_call_of_fused_layers(page):
    open_at_the_end(page, LSTM_LOOP)
    titles = group_titles(page)
    assert any(t.startswith("lstm @ t=0 · LSTM") for t in titles), titles
    assert any(t.startswith("lstm @ t=1 · LSTM") for t in titles), titles
    open_module(page, "lstm @ t=1")
    labels = box_labels(page)
    # two layers per call, one box each; none of the engine's steps inside the kernel
    assert labels.count("MkldnnRnnLayerBackward0") >= 2, labels
    assert not {"SigmoidBackward0", "UnsafeSplitBackward0", "AddmmBackward0"} & set(labels)
    kinds = page.evaluate("""() => document.querySelector('[data-gs-player]').gsPlayer
        .player.model.trace.events.map((e) => e.kind)""")
    assert kinds.count("backward_begin") == 1


GRU_LAYER = """import torch
from torch import nn
torch.manual_seed(0)
gru = nn.GRU(2, 3, batch_first=True)
x = torch.randn(1, 3, 2)
out, h = gru(x)
out.sum().backward()
"""


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", [(1440, 900), (1280, 720)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_whole_layer_unrolls_a_group_per_time_step(page, lang, size):
    page.set_viewport_size({"width": size[0], "height": size[1]})
    open_at_the_end(page, GRU_LAYER, lang)
    # the compact picture draws the layer as one box; opened, it unrolls a frame per step
    assert "gru · GRU(2, 3, batch_first=True)" in group_titles(page)
    open_module(page, "gru · GRU")
    titles = group_titles(page)
    for t in range(3):
        assert any(title.startswith(f"gru.l0 @ t={t} · GRU step") for title in titles), titles
    labels = box_labels(page)
    assert "UnsafeSplitBackward0" in labels and "SigmoidBackward0" in labels, labels
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.click("#zoom-fit")
    page.screenshot(path=str(SHOTS / f"gru-steps-{lang}-{size[0]}x{size[1]}.png"))
