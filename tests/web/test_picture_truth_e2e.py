"""The picture tells the truth about the programs learners write after the first tutorial
(real Chromium, live server): loss modules and model calls, module lists and RNN cells in a
loop, hooks, custom Functions, nested no_grad and optimizers.

Each test plays the program a learner wrote and reads what the page shows: the boxes' labels,
the groups' titles, the sentence and the v·J panel. Screenshots of each go to
artifacts/screenshots/ (tests/web/conftest.py).
"""
from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

import pytest
from player_page import open_program

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = ROOT / "tests" / "fixtures" / "nn_programs"
STRINGS = {lang: json.loads((ROOT / "static" / "i18n" / f"{lang}.json").read_text("utf-8"))
           for lang in ("en", "zh")}

SEQUENTIAL_CE = """import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
x = torch.randn(2, 3)
target = torch.tensor([0, 1])
loss_fn = nn.CrossEntropyLoss()
out = model(x)
loss = loss_fn(out, target)
loss.backward()
print(loss.item())
print(model[0].weight.grad)
"""

CUSTOM_MODULE = """import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(3, 4)
        self.head = nn.Linear(4, 1)
    def forward(self, x):
        h = F.relu(self.encoder(x))
        return self.head(h)
net = Net()
x = torch.randn(5, 3)
y = torch.randn(5, 1)
pred = net(x)
loss = ((pred - y) ** 2).mean()
loss.backward()
"""

NESTED_NO_GRAD = """import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    with torch.no_grad():
        a = x * 2
    b = x * 3
c = x * 4
print(a.requires_grad, b.requires_grad, c.requires_grad)
"""

ADAM = """import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Linear(2, 1)
opt = torch.optim.Adam(model.parameters(), lr=0.1)
x = torch.randn(4, 2)
y = torch.randn(4, 1)
loss = ((model(x) - y) ** 2).mean()
loss.backward()
opt.step()
"""


def go(page, kind: str, nth: int = 0) -> dict:
    """Step to the nth event of `kind`; return it."""
    return page.evaluate("""([kind, nth]) => {
        const c = document.querySelector('[data-gs-player]').gsPlayer;
        const events = c.player.model.trace.events;
        const at = events.map((e, i) => [e, i]).filter(([e]) => e.kind === kind)[nth];
        c.player.go(at[1]);
        return at[0];
    }""", [kind, nth])


def box_labels(page) -> list[str]:
    """The first line of every box drawn and present at this step."""
    return page.evaluate("""() => Array.from(document.querySelectorAll(
        '#graph svg g.node:not(.is-future)')).map((g) => {
          const t = g.querySelector('text');
          return t ? t.textContent.trim() : '';
        })""")


def group_titles(page) -> list[str]:
    return page.evaluate("""() => Array.from(document.querySelectorAll(
        '#graph svg g.gs-group > text, #graph svg g.gs-module text'))
        .map((t) => t.textContent.trim())""")


def picture_edges(page) -> list[tuple[str, str]]:
    """The arrows of the picture on screen (the compact one when it is shown), but the
    dashed `saved` ones: a node that saved its own result (tanh) points back at it."""
    return [tuple(e) for e in page.evaluate("""() => {
        const ids = new Set(Array.from(document.querySelectorAll('#graph svg g.edge'))
          .map((g) => g.id));
        const c = document.querySelector('[data-gs-player]').gsPlayer;
        const lay = c.player.model.answer.layout;
        const all = [lay, lay.compact, ...(lay.views || []), ...(lay.views || []).map((v) => v.compact)]
          .filter(Boolean).flatMap((p) => p.edges);
        return all.filter((e) => ids.has(e.id) && e.kind !== 'saved').map((e) => [e.from, e.to]);
    }""")]


def has_cycle(edges: list[tuple[str, str]]) -> bool:
    succ: dict[str, list[str]] = {}
    for a, b in edges:
        succ.setdefault(a, []).append(b)
    state: dict[str, int] = {}
    for start in list(succ):
        if state.get(start):
            continue
        stack = [(start, iter(succ.get(start, [])))]
        state[start] = 1
        while stack:        # iterative depth-first search: 1 on the path, 2 done
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                state[node] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                return True
            elif not state.get(nxt):
                state[nxt] = 1
                stack.append((nxt, iter(succ.get(nxt, []))))
    return False


# ---- every value the program names is a box with that name --------------------------------

def test_loss_module_output_and_model_output_are_boxes_and_the_root_is_marked(page):
    open_program(page, SEQUENTIAL_CE)
    begin = go(page, "backward_begin")
    labels = box_labels(page)
    assert "out" in labels and "loss" in labels, labels
    root = page.locator("#graph svg g.node.is-root")
    assert root.count() == 1 and root.locator("text").first.text_content().strip() == "loss"
    pill = page.locator("#graph .gs-pill-root")
    assert pill.count() == 1 and STRINGS["en"]["graph_root"] in pill.text_content()
    assert begin["roots"] and "loss" in page.locator("#narration").text_content()


@pytest.mark.parametrize("program, name", [(CUSTOM_MODULE, "pred"), (None, "out")],
                         ids=["custom-module-pred", "small-cnn-out"])
def test_a_model_calls_result_is_a_box_with_its_name(page, program, name):
    source = program or (PROGRAMS / "small_cnn.py").read_text()
    open_program(page, source)
    go(page, "backward_begin")
    assert name in box_labels(page)
    assert "loss" in box_labels(page)


def test_a_custom_function_keeps_the_callers_name_and_its_accumulategrad_outside(page):
    open_program(page, (PROGRAMS / "custom_function_relu.py").read_text())
    go(page, "backward_begin")
    labels = box_labels(page)
    assert "x" in labels and "input" not in labels, labels
    inside = page.evaluate("""() => {
        const g = Array.from(document.querySelectorAll('#graph svg g.gs-group'))
          .find((e) => (e.querySelector(':scope > text') || {}).textContent === 'MyReLU');
        const c = document.querySelector('[data-gs-player]').gsPlayer;
        const groups = c.player.model.answer.layout.groups || {};
        return Object.values(groups).flatMap((info) => info.members.map((m) =>
          (c.player.model.answer.layout.nodes[m] || {}).tip || m));
    }""")
    assert not any("AccumulateGrad" in tip for tip in inside), inside


# ---- one box per module call -------------------------------------------------------------

def test_each_layer_of_a_module_list_in_a_loop_is_its_own_group(page):
    open_program(page, (PROGRAMS / "module_list_loop.py").read_text())
    page.click("#step-last")
    titles = " ".join(group_titles(page))
    for k in range(3):
        assert f"m.layers[{k}]" in titles, titles
    assert "layer ·" not in titles
    assert not has_cycle(picture_edges(page))


def test_each_call_of_an_rnn_cell_is_its_own_group_and_the_picture_is_acyclic(page):
    open_program(page, (PROGRAMS / "rnn_cell_loop.py").read_text())
    page.click("#step-last")
    titles = " ".join(group_titles(page))
    for t in range(3):
        assert f"rnn @ t={t}" in titles, titles
        assert f"rnn.h2h @ t={t}" in titles, titles
    edges = picture_edges(page)
    assert edges and not has_cycle(edges)


# ---- hooks as steps ----------------------------------------------------------------------

@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_tensor_hook_is_a_step_with_what_it_received_and_returned(page, lang):
    open_program(page, (PROGRAMS / "tensor_hook.py").read_text(), lang)
    ev = go(page, "hook")
    assert ev["hook"] == "tensor" and ev["fn"] == "<lambda>"
    sentence = page.locator("#narration").text_content()
    assert "[6, 12]" in sentence and "[60, 120]" in sentence, sentence
    assert "y" in sentence
    pill = page.locator("#graph .gs-pill-hook")
    assert pill.count() == 1 and "60" in pill.text_content()


def test_module_and_multi_grad_hooks_are_steps(page):
    source = """import torch
import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(2, 1)
lin.register_forward_hook(lambda m, args, out: out * 2)
lin.register_full_backward_hook(lambda m, gin, gout: None)
a = torch.tensor([[1.0, 1.0]], requires_grad=True)
b = torch.tensor([2.0], requires_grad=True)
torch.autograd.graph.register_multi_grad_hook((a, b), lambda gs: None)
out = lin(a).sum() * b
out.sum().backward()
"""
    open_program(page, source)
    kinds = page.evaluate("""() => document.querySelector('[data-gs-player]').gsPlayer
        .player.model.trace.events.filter((e) => e.kind === 'hook').map((e) => e.hook)""")
    assert kinds == ["forward", "module_backward", "multi_grad"]
    go(page, "hook", 0)
    assert "lin" in page.locator("#narration").text_content()
    go(page, "hook", 2)
    assert STRINGS["en"]["hook_kind.multi_grad"] in page.locator("#narration").text_content()


# ---- v·J for every Jacobian small enough to show ------------------------------------------

@pytest.mark.parametrize("name", ["tensor_hook", "custom_function_relu"])
def test_small_jacobians_are_shown_with_hooks_and_custom_functions(page, name):
    open_program(page, (PROGRAMS / f"{name}.py").read_text())
    go(page, "backward_begin")
    assert page.locator("#vjp table.jac").count() >= 1
    assert STRINGS["en"]["vjp_too_big"] not in page.locator("#vjp").text_content()


def test_a_missing_jacobian_says_which_reason_applies(page):
    source = ("import torch\na = torch.tensor([1.0, 2.0], requires_grad=True)\nb = a.sigmoid()\n"
              "b.mul_(2)\nb.sum().backward()\n")
    open_program(page, source)
    go(page, "backward_begin")
    vjp = page.locator("#vjp").text_content()
    assert STRINGS["en"]["vjp_note_failed"] in vjp, vjp


# ---- library internals and their words ----------------------------------------------------

def test_leaving_an_inner_no_grad_is_not_entering_one(page):
    open_program(page, NESTED_NO_GRAD)
    sentences = page.evaluate("""() => {
        const c = document.querySelector('[data-gs-player]').gsPlayer;
        const events = c.player.model.trace.events;
        const out = [];
        events.forEach((e, i) => { if (e.kind === 'grad_mode') {
          c.player.go(i); out.push(document.querySelector('#narration').textContent); } });
        return out;
    }""")
    assert len(sentences) == 4
    assert sentences[2].startswith("Leaving an inner no_grad"), sentences
    assert "Entering" not in sentences[2] and "Entering" not in sentences[3]


def test_adam_is_narrated_by_its_rule(page):
    open_program(page, ADAM)
    go(page, "optimizer_step")
    sentence = page.locator("#narration").text_content()
    assert "m̂" in sentence and "against their gradient" not in sentence, sentence


# ---- Stop, and the smaller untruths -------------------------------------------------------

LOOP_FOREVER = "import torch\nx = torch.tensor(1.0, requires_grad=True)\nwhile True:\n    pass\n"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_stop_leaves_the_page_on_the_new_program(page, lang):
    open_program(page, (ROOT / "app" / "examples" / "03-accumulate.py").read_text(), lang)
    page.click("#step-last")
    assert page.locator("#graph svg g.node").count() > 0
    page.locator("#editor").fill(LOOP_FOREVER)
    page.click("#run")
    page.locator("#run-status").wait_for(state="visible", timeout=5000)
    page.click("#stop")
    page.locator("#run-status").wait_for(state="hidden", timeout=3000)
    # nothing of the previous program: no boxes, no sentence, no steps
    assert page.locator("#graph svg g.node").count() == 0
    assert STRINGS[lang]["run_stopped_graph"] in page.inner_text("#graph")
    assert page.inner_text("#narration").strip() == ""
    assert page.get_attribute("#step-label", "data-steps") == "0"
    assert STRINGS[lang]["run_stopped"] in page.inner_text("#console")
    page.wait_for_timeout(300)      # a late answer of the stopped run must not come back
    assert page.locator("#graph svg g.node").count() == 0


def test_no_iteration_picker_without_a_loop(page):
    open_program(page, (ROOT / "app" / "examples" / "01-mean-backward.py").read_text())
    assert page.locator("#iteration").is_hidden()
    open_program(page, (ROOT / "app" / "examples" / "12-training-loop.py").read_text())
    assert page.locator("#iteration").is_visible()


def test_an_unimplemented_pytorch_name_is_not_headed_python_says(page):
    open_program(page, "import torch\nx = torch.ones(2, 2)\nu = torch.linalg.svd(x)\n")
    page.click("#step-last")
    console = page.inner_text("#console")
    assert "torch.linalg.svd" in console
    assert STRINGS["en"]["console_from_python"] not in console, console
    assert STRINGS["en"]["console_from_gradstep"] in console, console


def test_the_lessons_index_counts_its_lessons(page):
    page.goto(f"{page.base}/lessons")
    count = page.locator(".lesson-card").count()
    intro = page.inner_text(".lessons-intro")
    assert intro.startswith(f"{count} short lessons"), intro
    assert "Fourteen" not in intro


def test_malformed_teacher_lessons_are_reported_on_the_index(browser, tmp_path):
    import sys
    sys.path.insert(0, str(ROOT / "tests"))
    from live_server import LiveServer

    good = (ROOT / "app" / "lessons" / "01-scalar-backward.toml").read_text("utf-8")
    (tmp_path / "mine.toml").write_text(good.replace('id = "scalar-backward"',
                                                     'id = "my-scalar"'), "utf-8")
    (tmp_path / "bad-syntax.toml").write_text('title = "unclosed\n', "utf-8")
    env = {"GRADSTEP_RATE_LIMIT": "0", "GRADSTEP_POOL_SIZE": "1",
           "GRADSTEP_LESSONS_DIR": str(tmp_path)}
    with LiveServer(env=env) as live:
        ctx = browser.new_context(viewport={"width": 1440, "height": 900})
        pg = ctx.new_page()
        pg.goto(f"{live.url}/lessons")
        note = pg.locator(".lessons-left-out")
        assert note.is_visible()
        text = note.inner_text()
        assert "bad-syntax.toml" in text and "TOML" in text, text
        assert str(tmp_path) not in text        # the server's folder is not the page's business
        assert "mine.toml" not in text
        ctx.close()


def test_clip_grad_norm_is_one_step_with_its_result(page):
    open_program(page, (PROGRAMS / "clip_then_step.py").read_text())
    steps = page.evaluate("""() => {
        const c = document.querySelector('[data-gs-player]').gsPlayer;
        const events = c.player.model.trace.events;
        const out = [];
        events.forEach((e, i) => { if (e.line === 10) {
          c.player.go(i); out.push([e.kind, document.querySelector('#narration').textContent]); } });
        return out;
    }""")
    assert len(steps) == 1, steps
    kind, sentence = steps[0]
    assert kind == "elided" and "clip_grad_norm_" in sentence
    assert "140.4" in sentence and "0.007122" in sentence, sentence
    assert "model.weight.grad" in sentence and "model.bias.grad" in sentence
    assert ".grad.grad" not in sentence
    assert STRINGS["en"]["unnamed"] not in sentence
    # the .grads the library used are called by what they are, its norms are not drawn
    # (the one unnamed box left is the norm line 12 prints)
    page.click("#step-last")
    labels = box_labels(page)
    assert {"model.weight.grad", "model.bias.grad", "total"} <= set(labels), labels
    assert labels.count("tensor") == 1, labels


# ---- the view keeps the work in sight -----------------------------------------------------

@pytest.mark.parametrize("size", [(1440, 900), (1280, 720)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_pass_badge_is_read_whole(page, size, lang):
    page.set_viewport_size({"width": size[0], "height": size[1]})
    open_program(page, SEQUENTIAL_CE, lang)
    go(page, "backward_begin")
    badge = page.locator("#pass-badge")
    assert badge.is_visible()
    cut = page.evaluate("""() => { const b = document.querySelector('#pass-badge');
        return b.scrollWidth - b.clientWidth; }""")
    assert cut <= 1, cut
    assert page.get_attribute(".pane-graph", "aria-labelledby") == "graph-title"


WIDE_MLP = """import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 8),
                      nn.ReLU(), nn.Linear(8, 1))
loss_fn = nn.MSELoss()
x = torch.randn(5, 6)
y = torch.randn(5, 1)
out = model(x)
loss = loss_fn(out, y)
loss.backward()
"""


def test_the_working_node_stays_in_view_after_opening_and_closing_a_module(page):
    open_program(page, WIDE_MLP)
    applies = page.evaluate("""() => document.querySelector('[data-gs-player]').gsPlayer
        .player.model.trace.events.filter((e) => e.kind === 'node_apply').map((e) => e.seq)""")
    page.evaluate(f"() => document.querySelector('[data-gs-player]').gsPlayer.player.go({applies[-2]})")
    in_pane = """() => {
        const pane = document.querySelector('#graph').getBoundingClientRect();
        const el = document.querySelector('#graph .node.is-active');
        if (!el) return null;
        const r = el.getBoundingClientRect();
        return r.left >= pane.left - 1 && r.right <= pane.right + 1 && r.top >= pane.top - 1
          && r.bottom <= pane.bottom + 1;
    }"""
    # open the first layer (the compact picture's box), then fold it again
    assert page.evaluate(in_pane) is True
    box = page.locator('#graph g.gs-module[data-group]').first
    gid = box.get_attribute("data-group")
    box.focus()
    page.keyboard.press("Enter")
    page.wait_for_timeout(100)
    assert page.evaluate(in_pane) is True
    page.locator(f'#graph [data-group="{gid}"]').first.focus()
    page.keyboard.press("Enter")
    page.wait_for_timeout(100)
    assert page.evaluate(in_pane) is True


LONG_LINE = ("import torch\nx = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)  # a leaf\n"
             "g, = torch.autograd.grad((x ** 3).sum(), x, create_graph=True)\n")


def visible_chars(page) -> float:
    return page.evaluate("""() => {
        const ta = document.querySelector('#editor');
        const probe = document.createElement('span');
        probe.textContent = 'x'.repeat(100);
        probe.style.font = getComputedStyle(ta).font;
        probe.style.whiteSpace = 'pre';
        probe.style.position = 'absolute';      // not a flex item of the page: its own width
        document.body.append(probe);
        const cw = probe.getBoundingClientRect().width / 100;
        probe.remove();
        const scroll = document.querySelector('.editor');
        const gutter = document.querySelector('.editor-gutter').getBoundingClientRect().width;
        return (scroll.clientWidth - gutter) / cw;
    }""")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_program_pane_widens_to_show_72_characters(page, lang):
    open_program(page, LONG_LINE, lang)
    assert visible_chars(page) < 72          # as it opens: the graph keeps its room
    handle = page.locator(".pane-splitter")
    box = handle.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 200)
    page.mouse.down()
    page.mouse.move(box["x"] + 260, box["y"] + 200, steps=6)
    page.mouse.up()
    assert visible_chars(page) >= 72
    assert page.locator("#graph").bounding_box()["width"] >= 320
    # by keyboard too, and Home gives the graph its room back
    handle.focus()
    page.keyboard.press("Home")
    narrow = visible_chars(page)
    for _ in range(8):
        page.keyboard.press("ArrowRight")
    assert visible_chars(page) >= 72 > narrow
    assert int(handle.get_attribute("aria-valuenow")) > 500


@pytest.mark.parametrize("name", ["03-accumulate.py", "12-training-loop.py"])
def test_presenter_mode_at_1280x720_keeps_the_root_in_view(page, name):
    page.set_viewport_size({"width": 1280, "height": 720})
    source = (ROOT / "app" / "examples" / name).read_text()
    page.goto(f"{page.base}/?presenter=1&code=" + quote(source))
    page.wait_for_selector('[data-gs-player][data-runs="1"]', state="attached", timeout=30000)
    for k in range(2):
        seen = page.evaluate("""(k) => {
            const c = document.querySelector('[data-gs-player]').gsPlayer;
            const ev = c.player.model.trace.events.filter((e) => e.kind === 'backward_begin')[k];
            c.player.go(ev.seq);
            const pane = document.querySelector('#graph').getBoundingClientRect();
            const b = document.querySelector('#graph .node.is-root').getBoundingClientRect();
            return b.top >= pane.top - 1 && b.bottom <= pane.bottom + 1 && b.left >= pane.left - 1
              && b.right <= pane.right + 1;
        }""", k)
        assert seen, (name, k)


# ---- checkpoint's rerun inside backward ---------------------------------------------------

CHECKPOINT = """import torch
from torch.utils.checkpoint import checkpoint
torch.manual_seed(0)
lin = torch.nn.Linear(4, 4)
def block(x):
    return torch.relu(lin(x)) * 2
x = torch.randn(2, 4, requires_grad=True)
y = checkpoint(block, x, use_reentrant=False)
y.sum().backward()
print(x.grad.sum())
"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_checkpoints_rerun_is_steps_of_the_pass_in_a_frame_of_its_own(page, lang):
    open_program(page, CHECKPOINT, lang)
    at = page.evaluate("""() => {
        const c = document.querySelector('[data-gs-player]').gsPlayer;
        const i = c.player.model.trace.events.findIndex((e) => e.kind === 'op' && e.recompute);
        c.player.go(i);
        return i;
    }""")
    assert at > 0
    sentence = page.locator("#narration").text_content()
    opening = STRINGS[lang]["narr.op_recompute_for"].split("{")[0]
    assert sentence.startswith(opening) and "ReluBackward0" in sentence, sentence
    titles = group_titles(page)
    assert "block ↻ · checkpoint" in titles, titles
    assert any(t.startswith("lin ↻") for t in titles) and any(t.startswith("lin ·") for t in titles)
