"""Transforms and forward mode in real Chromium: jacrev's Jacobian fills row by row and
jacfwd's column by column as the player steps, with the row or column at work and its one-hot
seed; jvp's J·v panel multiplies J by the tangent; vmap's batch fills sample by sample; inside
a forward_ad dual level each op's tangent rides along as a violet pill. In English and
Chinese. The numbers are the program's own: f(x) = (x₀x₁, sin x₀, x₁²) at x = (1, 2) has
J = [[2, 1], [cos 1, 0], [0, 4]]."""
from __future__ import annotations


import pytest
from player_page import open_program

pytestmark = pytest.mark.browser

HEAD = ("import torch\nfrom torch.func import jacrev, jacfwd, jvp, vmap\n\n\n"
        "def f(x):\n    return torch.stack([x[0] * x[1], x[0].sin(), x[1] ** 2])\n\n\n"
        "x = torch.tensor([1.0, 2.0])\n")
J = [["2", "1"], ["0.5403", "0"], ["0", "4"]]
TITLES = {"en": "Transforms", "zh": "变换"}
ROW_DONE = {"en": "Row 1 of 3 is in", "zh": "第 1 行（共 3 行）已算出"}
COL_AT = {"en": "Computing column 1 of 2", "zh": "正在计算第 1 列（共 2 列）"}


def open_transform(pg, source: str, lang: str):
    return open_program(pg, source, lang, timeout=60000)


def go(pg, kind: str, nth: int = 0, after: int = 0) -> int:
    """Show the step of the nth event of `kind` (plus `after` steps); returns its index."""
    return pg.evaluate("""([kind, nth, after]) => {
        const c = document.querySelector('[data-gs-player]').gsPlayer;
        const ev = c.player.model.trace.events.filter((e) => e.kind === kind)[nth];
        c.player.go(ev.seq + after);
        return ev.seq + after; }""", [kind, nth, after])


def matrix(pg) -> list[list[str]]:
    return pg.eval_on_selector_all("#transforms .tf-matrix tbody tr", """rows => rows.map(
        (r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent))""")


def marked(pg, cls: str) -> list[str]:
    return pg.eval_on_selector_all(f"#transforms .tf-matrix td.{cls}",
                                   "cells => cells.map((c) => c.textContent)")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_jacrev_fills_the_matrix_row_by_row(page, lang):
    open_transform(page, HEAD + "J = jacrev(f)(x)\nprint(J)\n", lang)
    assert page.locator("#transforms").is_hidden()      # nothing before the transform begins
    go(page, "transform_begin")
    assert page.locator("#transforms").is_visible()
    assert TITLES[lang] in page.text_content("#transforms-title")
    assert matrix(page) == [["·", "·"]] * 3
    go(page, "transform_step", 1)           # row 1 has just been computed
    assert matrix(page) == [J[0], J[1], ["·", "·"]]
    assert marked(page, "is-new") == J[1]
    status = page.inner_text("#transforms .tf-status")
    assert ROW_DONE[lang] in status and "[0, 1, 0]" in status
    assert "0.5403" in page.inner_text("#narration")
    # while row 2's backward pass runs, row 2 is the one at work, seeded with e₂
    go(page, "backward_begin", 2)
    assert marked(page, "is-at") == ["·", "·"]
    assert "[0, 0, 1]" in page.inner_text("#transforms .tf-seed")
    go(page, "transform_end")
    assert matrix(page) == J and marked(page, "is-at") == [] and marked(page, "is-new") == []


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_jacfwd_fills_the_matrix_column_by_column(page, lang):
    open_transform(page, HEAD + "J = jacfwd(f)(x)\n", lang)
    go(page, "transform_step", 0)
    assert matrix(page) == [[row[0], "·"] for row in J]
    assert marked(page, "is-new") == [row[0] for row in J]
    go(page, "transform_step", 0, after=1)
    assert COL_AT[lang] in page.inner_text("#transforms .tf-status")
    assert page.inner_text("#transforms .tf-seed") == "[0, 1]"
    go(page, "transform_end")
    assert matrix(page) == J


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_jvp_panel_multiplies_j_by_the_tangent(page, lang):
    open_transform(page, HEAD + "out, t = jvp(f, (x,), (torch.tensor([1.0, 0.0]),))\n", lang)
    go(page, "transform_begin")
    assert page.locator("#jvp").is_visible() and page.locator("#transforms").is_hidden()
    go(page, "transform_step")
    assert page.inner_text("#jvp .jvp-result") == "[2, 0.5403, 0]"
    assert page.inner_text("#jvp .jvp-engine") == "[2, 0.5403, 0]"
    assert page.locator("#jvp .is-match").count() == 1
    heads = page.eval_on_selector_all("#jvp .jvp-matrix thead th.weight",
                                      "ths => ths.map((t) => t.className)")
    assert "w3" in heads[0] and "w0" in heads[1]        # column 0 weighted by v₀ = 1, not 1


def test_vmap_strip_fills_sample_by_sample(page):
    open_transform(page, HEAD + "y = vmap(f)(torch.tensor([[1.0, 2.0], [0.0, 3.0]]))\n", "en")
    go(page, "transform_step", 0)
    samples = page.locator("#transforms .tf-sample")
    assert samples.count() == 2
    assert "[1, 2]" in samples.nth(0).inner_text() and "…" in samples.nth(1).inner_text()
    go(page, "transform_step", 1)
    assert "[0, 0, 9]" in samples.nth(1).inner_text()


FORWARD_AD = ("import torch\nimport torch.autograd.forward_ad as fwAD\n\n"
              "x = torch.tensor([1.0, 2.0])\nv = torch.tensor([1.0, 0.0])\n"
              "with fwAD.dual_level():\n    xd = fwAD.make_dual(x, v)\n    a = xd * xd\n"
              "    y = a.sin()\n    out, tangent = fwAD.unpack_dual(y)\nprint(tangent)\n")
TANGENT_ROW = {"en": "tangent", "zh": "切向量"}


def pill_texts(pg, cls: str) -> list[str]:
    return pg.eval_on_selector_all(f"#graph .{cls} text", "ts => ts.map((t) => t.textContent)")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_forward_ad_tangents_ride_along_the_forward_pass(page, lang):
    open_transform(page, FORWARD_AD, lang)
    go(page, "op", 1)                       # a = xd * xd: tangent 2x·v = [2, 0]
    assert pill_texts(page, "gs-pill-tangent") == ["ṫ [2, 0]"]
    assert pill_texts(page, "gs-pill-flow") == []           # no gradient pills in forward mode
    assert "[2, 0]" in page.inner_text("#narration")
    go(page, "op", 2)                       # y = sin(a): cos(1)·2 = 1.081
    assert pill_texts(page, "gs-pill-tangent") == ["ṫ [1.081, 0]"]
    assert page.locator("#graph .node.has-tangent").count() == 3     # xd, a, y
    ids = page.evaluate("""() => document.querySelector('[data-gs-player]').gsPlayer
        .player.model.trace.events.filter((e) => e.kind === 'op').map((e) => e.output.id)""")
    page.evaluate("(id) => document.querySelector('[data-gs-player]').gsPlayer.player.select(id)",
                  ids[2])
    row = page.locator("#inspector .facts dd.has-tangent")
    assert row.count() == 1 and TANGENT_ROW[lang] in page.inner_text("#inspector .facts")
    assert "1.0806" in row.inner_text()
    go(page, "dual_level", 1)               # leaving the level drops every tangent
    assert page.locator("#graph .node.has-tangent").count() == 0
