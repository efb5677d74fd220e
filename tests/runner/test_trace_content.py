"""What the traces of the seed programs say: numbers the browser will show must be right.

These read the golden fixtures (test_trace_golden.py proves they are what the recorder makes)
and, for the limits, record programs afresh with small caps.
"""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from gradstep.runner import trace as T

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "traces"
spec = importlib.util.spec_from_file_location("trace_regen_c", HERE / "regen.py")
regen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(regen)

BACKWARD_TWICE = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward.")


def load(name: str) -> dict:
    return json.loads((HERE / f"{name}.json").read_text(encoding="utf-8"))


def of_kind(trace: dict, kind: str) -> list[dict]:
    return [e for e in trace["events"] if e["kind"] == kind]


def fold(trace: dict) -> dict:
    """The documented fold (docs/trace-format.md, section 11), enough for these checks."""
    tensors, nodes, grads = {}, {}, {}
    console = []

    def apply(e):
        kind = e["kind"]
        if kind == "tensor":
            tensors[e["tensor"]["id"]] = dict(e["tensor"])
        elif kind == "op":
            tensors[e["output"]["id"]] = dict(e["output"])
            for n in ([e["node"]] if e["node"] else []) + e["new_nodes"]:
                nodes[n["id"]] = dict(n, freed=False)
        elif kind == "inplace":
            tensors[e["tensor"]].update(value=e["value"], grad_fn=e["grad_fn"])
            for n in ([e["node"]] if e["node"] else []) + e["new_nodes"]:
                nodes[n["id"]] = dict(n, freed=False)
        elif kind == "accumulate":
            grads[e["tensor"]] = e["after"]
        elif kind == "grad_reset":
            grads[e["tensor"]] = e["grad"]
        elif kind == "graph_freed":
            for n in e["nodes"]:
                nodes[n]["freed"] = True
        elif kind == "optimizer_step":
            for p in e["params"]:
                tensors[p["tensor"]]["value"] = p["after"]
        elif kind == "stdout":
            console.append(e["text"])
        elif kind == "elided":
            for c in e["carried"]:
                apply(c)
            for u in e["updates"]:
                if "value" in u:
                    tensors[u["tensor"]]["value"] = u["value"]
                if "grad" in u:
                    grads[u["tensor"]] = u["grad"]
            console.append(e["stdout"])

    for e in trace["events"]:
        apply(e)
    return {"tensors": tensors, "nodes": nodes, "grads": grads, "console": "".join(console)}


def arr(value: dict) -> np.ndarray:
    return np.array(value["data"], dtype=float)


def line_of(trace: dict, needle: str) -> int:
    lines = trace["program"]["source"].splitlines()
    return next(i + 1 for i, text in enumerate(lines) if needle in text)


# ---- accumulation -------------------------------------------------------------------------

@pytest.mark.parametrize("path", sorted(HERE.glob("*.json")), ids=lambda p: p.stem)
def test_every_accumulation_adds_up(path):
    trace = T.load(path.read_bytes())
    for e in of_kind(trace, "accumulate"):
        before = 0.0 if e["before"] is None else arr(e["before"])
        np.testing.assert_allclose(before + arr(e["added"]), arr(e["after"]), rtol=1e-5)


def test_grad_accumulates_across_calls_until_zeroed():
    trace = load("s001_grad_accumulate")
    params = of_kind(trace, "tensor")[0]["tensor"]
    assert params["name"] == "params"
    acc = [e for e in of_kind(trace, "accumulate") if e["tensor"] == params["id"]]
    assert [e["pass"] for e in acc] == [0, 1, 2]
    assert acc[0]["before"] is None
    assert [arr(e["after"]).tolist() for e in acc] == [[1, 1], [2, 2], [1, 1]]
    resets = of_kind(trace, "grad_reset")
    assert [(r["tensor"], r["how"], arr(r["grad"]).tolist()) for r in resets] == [
        (params["id"], "zero_", [0, 0])]
    # the reset sits between the second and third pass, and the third starts from zero
    seqs = [e["seq"] for e in acc]
    assert seqs[1] < resets[0]["seq"] < seqs[2]
    assert arr(acc[2]["before"]).tolist() == [0, 0]
    assert fold(trace)["console"] == (
        "None\ntensor([1., 1.])\ntensor([2., 2.])\ntensor([0., 0.])\ntensor([1., 1.])\n")


def test_retain_graph_keeps_buffers_for_the_second_loss():
    trace = load("s001_retain_graph_two_losses")
    begins = of_kind(trace, "backward_begin")
    assert [b["retain_graph"] for b in begins] == [True, False]
    freed = of_kind(trace, "graph_freed")
    assert [f["pass"] for f in freed] == [1]
    acc = of_kind(trace, "accumulate")
    # d(mean(4x^2))/dx = 2 at x = 1, then d(sum(4x^2))/dx = 8 on top
    assert [arr(a["added"]).tolist() for a in acc] == [[[2, 2, 2, 2]], [[8, 8, 8, 8]]]
    assert arr(acc[1]["after"]).tolist() == [[10, 10, 10, 10]]


# ---- the second backward ------------------------------------------------------------------

def test_second_backward_error_points_at_the_freed_node_and_line():
    trace = load("s000_backward_twice_error")
    (err,) = of_kind(trace, "error")
    assert (err["type"], err["message"], err["error_kind"]) == (
        "RuntimeError", BACKWARD_TWICE, "exception")
    assert err["line"] == line_of(trace, "# --- error ----")
    begins = of_kind(trace, "backward_begin")
    assert [b["pass"] for b in begins] == [0, 1] and err["pass"] == 1
    # the node is the root's grad_fn, freed by the first pass, and it saved something
    state = fold(trace)
    root = state["tensors"][begins[1]["roots"][0]]
    assert err["node"] == root["grad_fn"]
    assert state["nodes"][err["node"]]["freed"]
    assert state["nodes"][err["node"]]["name"] == "MulBackward0"
    (freed,) = of_kind(trace, "graph_freed")
    assert freed["pass"] == 0 and err["node"] in freed["nodes"]
    assert freed["seq"] < err["seq"]
    assert trace["events"][-1]["exit_code"] == 1


def test_caught_second_backward_keeps_recording():
    trace = load("caught_second_backward")
    (err,) = of_kind(trace, "error")
    assert err["caught"] is True and err["message"] == BACKWARD_TWICE
    assert err["line"] == line_of(trace, "    y.backward()")
    # after the error the program went on: a third pass accumulates 4 onto 2x = [4, 6]
    acc = of_kind(trace, "accumulate")
    assert acc[-1]["seq"] > err["seq"]
    assert arr(acc[-1]["after"]).tolist() == [8, 10]
    assert trace["events"][-1]["exit_code"] == 0
    assert fold(trace)["console"] == "caught: RuntimeError\ntensor([ 8., 10.])\n"


# ---- v·J ----------------------------------------------------------------------------------

def test_vjp_of_a_non_scalar_backward_equals_x_grad():
    trace = load("s000_while_norm_vjp")
    (begin,) = of_kind(trace, "backward_begin")
    assert begin["implicit_seed"] is False
    assert arr(begin["seeds"][0]).tolist() == [0.5, 0.5, 0.5]
    (jac,) = begin["jacobian"]
    x = of_kind(trace, "tensor")[0]["tensor"]
    assert x["name"] == "x" and jac["leaf"] == x["id"] and jac["root"] == begin["roots"][0]
    np.testing.assert_allclose(jac["rows"], 1024 * np.eye(3))
    v = arr(begin["seeds"][0])
    np.testing.assert_allclose(v @ np.array(jac["rows"]), jac["vjp"])
    (acc,) = of_kind(trace, "accumulate")
    assert acc["tensor"] == x["id"]
    np.testing.assert_allclose(jac["vjp"], arr(acc["added"]))
    np.testing.assert_allclose(arr(acc["after"]), [512, 512, 512])


def test_vjp_with_three_scalar_leaves():
    trace = load("s001_vjp_scalars")
    (begin,) = of_kind(trace, "backward_begin")
    v = arr(begin["seeds"][0])
    assert v.tolist() == [3, 2, 1]
    names = {t["tensor"]["id"]: t["tensor"]["name"] for t in of_kind(trace, "tensor")}
    by_leaf = {names[j["leaf"]]: j for j in begin["jacobian"]}
    assert sorted(by_leaf) == ["x1", "x2", "x3"]
    # y = [x1² + 2x2 + x3, x1 + x2³ + x3², 2x1 + x2² + x3³] at (1, 2, 3)
    np.testing.assert_allclose([r[0] for r in by_leaf["x1"]["rows"]], [2, 1, 2])
    np.testing.assert_allclose([r[0] for r in by_leaf["x2"]["rows"]], [2, 12, 4])
    np.testing.assert_allclose([r[0] for r in by_leaf["x3"]["rows"]], [1, 6, 27])
    added = {a["tensor"]: arr(a["added"]) for a in of_kind(trace, "accumulate")}
    for j in begin["jacobian"]:
        np.testing.assert_allclose(j["vjp"], np.atleast_1d(added[j["leaf"]]))


def test_scalar_backward_has_implicit_seed_and_gradient_row():
    trace = load("first_trace")
    (begin,) = of_kind(trace, "backward_begin")
    assert begin["implicit_seed"] is True and arr(begin["seeds"][0]).tolist() == 1.0
    assert begin["jacobian"][0]["rows"] == [[3.0, 3.0]]


def test_jacobian_sets_hooks_and_retained_grads_aside():
    trace = load("hooks_retain_grad")
    (begin,) = of_kind(trace, "backward_begin")
    # z = sum(y * y), y = 2x: dz/dx = 8x, the derivative itself, whatever the hooks do
    assert begin["jacobian"][0]["rows"] == [[8.0, 16.0]]
    # the hook printed once (the program's own pass), and y.grad was filled once
    assert fold(trace)["console"] == "hook tensor([4., 8.])\ntensor([4., 8.])\ntensor([ 8., 16.])\n"
    acc = {a["tensor"]: a for a in of_kind(trace, "accumulate")}
    names = fold(trace)["tensors"]
    y = next(t for t in names.values() if t["name"] == "y")
    assert acc[y["id"]]["node"] is None  # a retain_grad() non-leaf has no AccumulateGrad
    assert arr(acc[y["id"]]["after"]).tolist() == [4, 8]


# ---- the graph ----------------------------------------------------------------------------

def test_first_trace_graph_names_and_edges():
    trace = load("first_trace")
    state = fold(trace)
    names = {t["name"]: t for t in state["tensors"].values() if t["name"]}
    assert set(names) >= {"x", "y", "s"}
    y_node = state["nodes"][names["y"]["grad_fn"]]
    assert y_node["name"] == "MulBackward0"
    acc = state["nodes"][y_node["next_functions"][0][0]]
    assert acc["name"] == "AccumulateGrad" and acc["variable"] == names["x"]["id"]
    # every node_apply repeats its edges so it can be drawn alone; they must match the node
    for e in of_kind(trace, "node_apply"):
        assert e["to"] == [n for n, _ in state["nodes"][e["node"]]["next_functions"]]
        assert len(e["grads_out"]) == len(e["to"])


def test_no_grad_and_detach_stand_outside_the_graph():
    trace = load("s001_no_grad_detach")
    modes = of_kind(trace, "grad_mode")
    assert [(m["enabled"], m["mode"]) for m in modes] == [(False, "no_grad"), (True, "no_grad")]
    inside = [e for e in of_kind(trace, "op") if modes[0]["seq"] < e["seq"] < modes[1]["seq"]]
    assert inside and all(e["node"] is None and e["grad_mode"] is False for e in inside)
    # the program binds `z` twice, first in the graph, then under no_grad: the second is z₂
    assert inside[-1]["output"]["name"] == "z₂" and not inside[-1]["output"]["requires_grad"]
    outside = [e for e in of_kind(trace, "op") if e["seq"] > modes[1]["seq"]]
    assert outside[-1]["node"]["name"] == "AddBackward0"
    (det,) = [e for e in of_kind(trace, "tensor") if e["how"] == "detach"]
    assert det["tensor"]["name"] == "z_det"
    assert (det["tensor"]["is_leaf"], det["tensor"]["requires_grad"]) == (True, False)
    np.testing.assert_allclose(arr(det["tensor"]["value"]), arr(outside[-1]["output"]["value"]))


def test_copyslices_graph():
    trace = load("s001_copyslices_m_n")
    state = fold(trace)
    n = next(t for t in state["tensors"].values() if t["name"] == "n")
    assert state["nodes"][n["grad_fn"]]["name"] == "CopySlices"
    m = next(t for t in state["tensors"].values() if t["name"] == "m")
    np.testing.assert_allclose(arr(state["grads"][m["id"]]), [[4, 27]])


def test_create_graph_records_the_backward_graph():
    trace = load("s000_higher_order_grad")
    begins = of_kind(trace, "backward_begin")
    assert [(b["api"], b["create_graph"]) for b in begins] == [("grad", True), ("grad", False)]
    inside = [e for e in of_kind(trace, "op") if e["in_backward"]]
    assert inside and all(begins[0]["seq"] < e["seq"] < begins[1]["seq"] for e in inside)
    # the second pass differentiates a tensor the first pass built
    assert begins[1]["roots"][0] in {e["output"]["id"] for e in inside}
    applied = [e for e in of_kind(trace, "node_apply") if e["pass"] == 0]
    assert any(g and "tensor" in g for e in applied for g in e["grads_out"])
    assert not [e for e in of_kind(trace, "graph_freed") if e["pass"] == 0]


# ---- elision and limits -------------------------------------------------------------------

def test_training_loop_keeps_first_and_last_passes_and_the_loss_series():
    trace = load("training_loop_elided")
    lim = trace["limits"]
    passes = [b["pass"] for b in of_kind(trace, "backward_begin")]
    head, tail = lim["detail_head"], lim["detail_tail"]
    assert passes == list(range(head)) + list(range(200 - tail, 200))
    (el,) = of_kind(trace, "elided")
    assert el["reason"] == "detail_window" and el["passes"] == [head, 200 - tail - 1]
    assert el["counts"]["backward_begin"] == 200 - head - tail
    assert [p for p, _ in el["series"]] == list(range(head, 200 - tail))
    roots = trace["series"]["roots"]
    assert [p for p, _ in roots] == list(range(200))
    assert all(b[1] < a[1] for a, b in zip(roots, roots[1:]))  # this loss only goes down
    # the printed series: rows [epoch, loss] from the print line, loss = that pass's root
    (printed,) = trace["series"]["printed"]
    assert printed["line"] == line_of(trace, "print('Epoch")
    assert [r[0] for r in printed["rows"]] == [50, 100, 150, 200]
    for epoch, loss in printed["rows"]:
        assert loss == pytest.approx(roots[epoch - 1][1], rel=1e-5)
    # the console is complete even though the middle was summarised
    state = fold(trace)
    assert state["console"].count("Epoch") == 4
    assert trace["truncated"] is False
    # each epoch makes a new `params`; the kept last epochs use one made in the elided stretch,
    # so the elided event carries its definition and the fold knows it
    first_tail = next(e for e in of_kind(trace, "backward_begin") if e["pass"] == 200 - tail)
    update = next(e for e in of_kind(trace, "op") if e["seq"] > el["seq"] and e["op"] == "sub"
                  and e["line"] == line_of(trace, "params = (params - learning_rate"))
    used = update["inputs"][0]  # the `params` of the last elided epoch
    assert update["seq"] < first_tail["seq"]
    carried = {c["tensor"]["id"]: c["tensor"] for c in el["carried"] if c["kind"] == "tensor"}
    # a later tensor bound to `params` than the leaf made before the loop: numbered
    name = carried[used]["name"]
    assert name[:6] == "params" and name[6:]
    assert all(c in "₀₁₂₃₄₅₆₇₈₉" for c in name[6:])
    assert used in state["tensors"]
    # and requires_grad_() after detach() is visible before that tensor is used
    redescribed = [e for e in of_kind(trace, "tensor") if e["how"] == "requires_grad_"]
    assert redescribed and all(e["tensor"]["requires_grad"] for e in redescribed)


def _training_source() -> str:
    return (HERE / "programs" / "training_loop_elided.py").read_text(encoding="utf-8")


def test_byte_cap_is_respected_and_says_so():
    cap = 40_000
    trace, out, _ = regen.record_program(_training_source(), "main.py", {"max_bytes": cap})
    data = T.dump(trace)
    assert len(data) <= cap
    assert trace["truncated"] is True
    cuts = [e for e in of_kind(trace, "elided") if e["reason"] == "byte_cap"]
    assert cuts and all(el["counts"] for el in cuts)
    assert fold(trace)["console"] == out
    assert trace["events"][-1]["kind"] == "end"
    T.validate(T.load(data))


def test_event_cap_keeps_the_start_and_the_end():
    trace, out, _ = regen.record_program(_training_source(), "main.py", {"max_events": 60})
    assert len(trace["events"]) <= 60
    assert trace["truncated"] is True
    kinds = [e["kind"] for e in trace["events"]]
    assert kinds[0] == "tensor" and kinds[-1] == "end"
    assert any(e["kind"] == "elided" and e["reason"] == "event_cap" for e in trace["events"])
    # the last pass is closed and the last line's output shown as it ran, not summarised
    assert "backward_end" in kinds and kinds[-2] == "stdout"
    assert fold(trace)["console"] == out


def test_no_elision_when_head_and_tail_cover_the_run():
    trace, _, _ = regen.record_program(_training_source(), "main.py",
                                       {"detail_head": 150, "detail_tail": 50,
                                        "max_bytes": 50_000_000})
    assert not of_kind(trace, "elided")
    assert len(of_kind(trace, "backward_begin")) == 200


def test_a_recorder_bug_never_changes_the_program(monkeypatch):
    import gradstep.runner.recorder_backward as recorder_backward

    def broken(*args):
        raise KeyError("simulated recorder bug")

    monkeypatch.setattr(recorder_backward, "_walk", broken)
    source = (HERE / "programs" / "s001_grad_accumulate.py").read_text(encoding="utf-8")
    trace, out, code = regen.record_program(source, "main.py")
    assert code == 0 and out.splitlines()[-1] == "tensor([1., 1.])"
    # detail stops at the first backward, with the reason; the console stays complete
    (failure,) = [e for e in of_kind(trace, "elided") if e["reason"] == "recorder_failure"]
    assert "simulated recorder bug" in failure["message"]
    assert not [e for e in of_kind(trace, "backward_begin")]
    assert fold(trace)["console"] == out
    assert trace["truncated"] is True


def test_elision_does_not_keep_every_epoch_alive(monkeypatch):
    # the elided middle keeps definitions only of what still exists, so a long loop's memory
    # does not grow with its length: each epoch makes ~10 tensors and nodes, all garbage soon
    import gc

    import gradstep.runner.recorder as recorder
    import gradstep.runner.trace_summary as trace_summary
    seen = {}
    finish = recorder.Recorder.finish

    def spy(self, exit_code, check=False):
        gc.collect()
        seen["defs"] = sum(1 for ref, *_ in self._elided.defs.values()
                           if ref is not trace_summary._alive and ref() is not None)
        seen["absorbed"] = self._elided.absorbed
        return finish(self, exit_code, check)

    monkeypatch.setattr(recorder.Recorder, "finish", spy)
    trace, _, _ = regen.record_program(_training_source(), "main.py")
    assert seen["absorbed"] == 195
    assert seen["defs"] < 20  # the recorder itself keeps no epoch's graph alive
    T.validate(trace)


def test_optimizer_steps_move_the_parameters_by_lr_times_grad():
    trace = load("training_loop_optim")
    steps = of_kind(trace, "optimizer_step")
    lim = trace["limits"]
    assert len(steps) == lim["detail_head"] + lim["detail_tail"]
    acc = {e["pass"]: e for e in of_kind(trace, "accumulate")}
    begins = of_kind(trace, "backward_begin")
    for step in steps:
        assert (step["optimizer"], step["lr"]) == ("SGD", pytest.approx(1e-2))
        (p,) = step["params"]
        k = max(b["pass"] for b in begins if b["seq"] < step["seq"])
        assert acc[k]["tensor"] == p["tensor"]
        # plain SGD: after = before - lr * grad, with the gradient this pass accumulated
        np.testing.assert_allclose(arr(p["after"]), arr(p["before"]) - 1e-2 * arr(acc[k]["after"]),
                                   rtol=1e-4)
    # optimizer.zero_grad() sets .grad to None (set_to_none=True, as in PyTorch 2)
    resets = of_kind(trace, "grad_reset")
    assert resets and all(r["how"] == "none" and r["grad"] is None for r in resets)
    # through the elided stretch the fold carries the parameter's latest value
    (el,) = of_kind(trace, "elided")
    first_tail = next(s for s in steps if s["seq"] > el["seq"])
    (upd,) = [u for u in el["updates"] if u["tensor"] == first_tail["params"][0]["tensor"]]
    np.testing.assert_allclose(arr(upd["value"]), arr(first_tail["params"][0]["before"]))
    state = fold(trace)
    np.testing.assert_allclose(arr(state["tensors"][upd["tensor"]]["value"]),
                               arr(steps[-1]["params"][0]["after"]))


def test_event_cap_inside_the_elided_middle_keeps_the_console_and_the_error():
    # a cap small enough to fall inside the first windows: the detail-window summary is then
    # part of what the event cap stands for, and the second-backward error must survive it
    source = (HERE / "programs" / "s000_backward_twice_error.py").read_text(encoding="utf-8")
    trace, out, code = regen.record_program(source, "main.py", {"max_events": 12})
    assert code == 1 and len(trace["events"]) <= 12
    kinds = [e["kind"] for e in trace["events"]]
    assert kinds[-2:] == ["error", "end"] and "elided" in kinds
    err = trace["events"][-2]
    assert err["message"] == BACKWARD_TWICE and err["node"] is not None
    # the node the error points at is defined, by a kept event or by the cut's carried ones
    assert err["node"] in fold(trace)["nodes"]
    assert fold(trace)["console"] == out
    training, out2, _ = regen.record_program(_training_source(), "main.py", {"max_events": 30})
    assert fold(training)["console"] == out2 and len(training["events"]) <= 30


def test_an_in_place_op_on_a_grad_is_a_grad_reset_naming_the_op():
    source = ("import torch\n"
              "w = torch.tensor([3.0, 4.0], requires_grad=True)\n"
              "(w * w).sum().backward()\n"
              "torch.nn.utils.clip_grad_norm_([w], max_norm=1.0)\n"
              "w.grad.clamp_(-0.5, 0.5)\n"
              "w.grad.zero_()\n")
    trace, _, _ = regen.record_program(source, "main.py")
    T.validate(trace)
    resets = of_kind(trace, "grad_reset")
    assert [(e["how"], e.get("op"), e["line"]) for e in resets] == [
        ("inplace", "clamp_", 5), ("zero_", None, 6)]
    # clip_grad_norm_ is one library step with its result: 2w = [6, 8], norm 10, scaled to
    # norm 1; then the learner's clamp_
    (clip,) = [e for e in of_kind(trace, "elided") if e.get("call")]
    assert clip["line"] == 4 and clip["call"]["fn"] == "clip_grad_norm_"
    assert arr(clip["call"]["total"]) == pytest.approx(10.0, rel=1e-4)
    assert arr(clip["call"]["scale"]) == pytest.approx(0.1, rel=1e-4)
    (grad,) = [u for u in clip["updates"] if "grad" in u]
    assert arr(grad["grad"]) == pytest.approx([0.6, 0.8], rel=1e-4)
    assert arr(resets[0]["grad"]) == pytest.approx([0.5, 0.5])


def test_warnings_inside_an_elided_stretch_keep_their_place_in_the_output():
    # the console interleaves an elided stretch's stdout and warnings by `at`, as a terminal
    # shows them; both ways of eliding (the detail window, the event cap) must say where
    source = ("import torch\nimport warnings\n"
              "x = torch.tensor([1.0, 2.0], requires_grad=True)\n"
              "for i in range(40):\n"
              "    print('before', i)\n"
              "    if i in (3, 25):\n"
              "        warnings.warn(f'at {i}')\n"
              "    (x * x).sum().backward()\n"
              "    print('after', i)\n")
    for limits in ({}, {"max_events": 30}):
        trace, _, _ = regen.record_program(source, "main.py", limits)
        [stretch] = [e for e in trace["events"] if e["kind"] == "elided" and e["warnings"]]
        assert [w["message"] for w in stretch["warnings"]] == ["at 3", "at 25"]
        for w in stretch["warnings"]:
            i = w["message"].split()[1]
            assert stretch["stdout"][:w["at"]].endswith(f"before {i}\n")
            assert stretch["stdout"][w["at"]:].startswith(f"after {i}\n")


def test_the_printed_series_takes_numbers_not_digits_of_names_or_addresses():
    from gradstep.runner.trace_build import _printed_series
    chunks = [(3, "epoch 1, loss 0.5\n"), (3, "epoch 2, loss 2.5e-01.\n"),
              (7, "<AddBackward0 object at 0x7f3a2b765af0> fc1.weight float32\n"),
              (7, "<MulBackward0 object at 0x7f3a2b765b10> fc2.bias float64\n"),
              (9, "MseLossBackwardBackward0 [0.25, -1.0]\n"),
              (9, "MseLossBackwardBackward0 [1.5, 3]\n")]
    assert _printed_series(chunks, 100) == [
        {"line": 3, "rows": [[1, 0.5], [2, 0.25]]},   # a line with no numbers has no series
        {"line": 9, "rows": [[0.25, -1.0], [1.5, 3]]}]
