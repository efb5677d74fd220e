"""Optimizer steps in the trace (docs/trace-format.md, section 15): one `optimizer_update` per
parameter carrying the engine's own optimizer.state, equal to what PyTorch 2.13 printed for
the same program (tests/golden/expected/bits_optim_state.out), plus `zero_grad` and
`lr_step`."""
from __future__ import annotations

import ast
import importlib.util
import math
from pathlib import Path

import pytest

import gradstep.engine as torch
from gradstep.engine import _events

TESTS = Path(__file__).resolve().parents[1]
GOLDEN = TESTS / "golden"
KEEP_ALL = {"detail_head": 1000, "detail_tail": 1000}


def _regen():
    spec = importlib.util.spec_from_file_location("trace_regen",
                                                  TESTS / "fixtures" / "traces" / "regen.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


regen = _regen()


def record(source: str, limits: dict | None = None) -> list:
    trace, _, code = regen.record_program(source, "main.py", limits)
    assert code == 0, trace["events"][-2:]
    regen.T.validate(trace)
    return trace["events"]


def of(events: list, kind: str) -> list:
    return [e for e in events if e["kind"] == kind]


def flat(data) -> list:
    if isinstance(data, list):
        return [x for d in data for x in flat(d)]
    return [data]


def pytorch_states() -> list:
    """[(config line, {step: (state of w, state of b)})] as PyTorch printed them."""
    out: list = []
    lines = (GOLDEN / "expected" / "bits_optim_state.out").read_text().splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("after step"):
            step = int(line.split()[2])
            out[-1][1][step] = (ast.literal_eval(lines[i + 2]), ast.literal_eval(lines[i + 3]))
            i += 4
            continue
        out.append((line, {}))
        i += 1
    return out


def test_the_traced_state_is_pytorchs_after_steps_1_2_and_10():
    source = (GOLDEN / "cases" / "bits_optim_state.py").read_text()
    events = record(source, KEEP_ALL)
    updates = of(events, "optimizer_update")
    configs = pytorch_states()
    assert len(configs) == 11 and len(updates) == 11 * 10 * 2
    checked = 0
    for c, (title, steps) in enumerate(configs):
        name = title.split()[0]
        for step, torch_states in steps.items():
            for k, torch_state in enumerate(torch_states):
                ev = updates[c * 20 + (step - 1) * 2 + k]
                assert ev["optimizer"] == name and ev["index"] == k and ev["count"] == 2
                traced = {s["name"]: s["value"]["data"] for s in ev["state"]}
                assert list(traced) == list(torch_state), (title, step)  # PyTorch's key order
                for key, want in torch_state.items():
                    got = flat(traced[key])
                    assert len(got) == len(flat(want))
                    for g, w in zip(got, flat(want)):   # the trace keeps 6 digits
                        assert math.isclose(g, w, rel_tol=5e-6, abs_tol=1e-12), (title, step, key)
                        checked += 1
    assert checked > 200


SGD_MOMENTUM = """\
import torch
w = torch.tensor([1.0, -2.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)
for i in range(2):
    opt.zero_grad()
    (w * w).sum().backward()
    opt.step()
"""


def test_sgd_momentum_events_carry_the_rule_and_come_before_the_summary():
    events = record(SGD_MOMENTUM)
    kinds = [e["kind"] for e in events if e["kind"] in ("optimizer_update", "optimizer_step")]
    assert kinds == ["optimizer_update", "optimizer_step"] * 2
    first, second = of(events, "optimizer_update")
    assert first["hyper"]["momentum"] == 0.9 and first["lr"] == 0.1
    assert first["state_before"] == []          # the buffer is made by the first step
    assert first["grad"]["data"] == [2.0, -4.0]
    assert first["before"]["data"] == [1.0, -2.0] and first["after"]["data"] == [0.8, -1.6]
    assert [s["name"] for s in first["state"]] == ["momentum_buffer"]
    assert [t["name"] for t in first["terms"]] == ["d_p", "direction"]
    # step 2: buf = 0.9 * [2, -4] + [1.6, -3.2]; the buffer before is the first step's
    assert second["state_before"][0]["value"]["data"] == [2.0, -4.0]
    assert second["state"][0]["value"]["data"] == pytest.approx([3.4, -6.8])
    assert second["after"]["data"] == pytest.approx([0.46, -0.92])
    assert second["after"]["repr"].endswith("requires_grad=True)")


def test_adam_terms_are_the_engines_intermediates():
    events = record("""\
import torch
w = torch.tensor([1.0, -2.0], requires_grad=True)
opt = torch.optim.AdamW([w], lr=0.1, weight_decay=0.5, amsgrad=True)
for i in range(2):
    opt.zero_grad()
    (w * w).sum().backward()
    opt.step()
""")
    ev = of(events, "optimizer_update")[1]
    terms = {t["name"]: t.get("number", t.get("value")) for t in ev["terms"]}
    assert list(terms) == ["d_p", "decayed", "bias_correction1", "bias_correction2", "m_hat",
                           "v_hat", "step_size", "denom"]
    assert terms["bias_correction1"] == pytest.approx(1 - 0.9 ** 2)
    assert terms["step_size"] == pytest.approx(0.1 / (1 - 0.9 ** 2), rel=1e-5)
    state = {s["name"]: s["value"] for s in ev["state"]}
    assert list(state) == ["step", "exp_avg", "exp_avg_sq", "max_exp_avg_sq"]
    # the rule's lines show numbers; only `after`, the parameter's value, is printed
    assert state["step"]["data"] == 2.0 and state["step"]["repr"] is None
    assert ev["after"]["repr"] == "tensor([ 0.7082, -1.6104], requires_grad=True)"
    m = flat(state["exp_avg"]["data"])
    assert flat(terms["m_hat"]["data"]) == pytest.approx([x / (1 - 0.9 ** 2) for x in m],
                                                        rel=1e-5)
    assert ev["hyper"]["betas"] == [0.9, 0.999] and ev["hyper"]["amsgrad"] is True


def test_zero_grad_says_what_it_resets():
    events = record("""\
import torch
w = torch.tensor([1.0], requires_grad=True)
b = torch.tensor([2.0], requires_grad=True)
opt = torch.optim.SGD([w, b], lr=0.1)
opt.zero_grad()
(w * 3).sum().backward()
opt.zero_grad(set_to_none=False)
(w * b).sum().backward()
opt.zero_grad()
""")
    z = of(events, "zero_grad")
    assert [e["set_to_none"] for e in z] == [True, False, True]
    assert [[p["had_grad"] for p in e["params"]] for e in z] == [[False, False], [True, False],
                                                                 [True, True]]
    resets = of(events, "grad_reset")
    assert [r["how"] for r in resets] == ["zero_", "none", "none"]
    assert resets[0]["grad"]["data"] == [0.0]
    assert resets[0]["seq"] == z[1]["seq"] + 1     # the resets follow the call


@pytest.mark.parametrize("make, lrs", [
    ("StepLR(opt, step_size=2, gamma=0.5)", [1.0, 1.0, 0.5, 0.5]),
    ("LambdaLR(opt, lambda e: 1 / (e + 1))", [1.0, 0.5, 1 / 3, 0.25]),
    ("CosineAnnealingLR(opt, T_max=2)", [1.0, 0.5, 0.0, 0.5]),
    ("OneCycleLR(opt, max_lr=1.0, total_steps=5)", None),
])
def test_scheduler_lr_is_beside_each_step(make, lrs):
    events = record(f"""\
import torch
w = torch.tensor([1.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=1.0)
sched = torch.optim.lr_scheduler.{make}
for i in range(4):
    opt.zero_grad()
    (w * w).sum().backward()
    opt.step()
    sched.step()
""")
    steps = of(events, "lr_step")
    name = make.split("(")[0]
    assert [e["epoch"] for e in steps] == [0, 1, 2, 3, 4]
    assert all(e["scheduler"] == name for e in steps)
    updates = of(events, "optimizer_update")
    used = [u["lr"] for u in updates]
    # each update uses the lr the scheduler's previous step set, and names that step
    assert used == pytest.approx([s["after"][0] for s in steps[:4]], rel=1e-5)
    assert [u["scheduler"] for u in updates] == [{"name": name, "epoch": k} for k in range(4)]
    assert [s["before"][0] for s in steps[1:]] == pytest.approx(used, rel=1e-5)
    if lrs is not None:
        assert used == pytest.approx(lrs, abs=1e-6)


def test_an_unwatched_step_keeps_no_terms():
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    opt = torch.optim.Adam([w], lr=0.1)
    assert _events.listener is None
    (w * w).sum().backward()
    opt.step()
    assert opt._terms is None
