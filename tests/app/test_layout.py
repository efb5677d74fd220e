"""The graph picture: which boxes and arrows a trace gives, their SVG ids, the geometry."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gradstep.app.services.graph import Graph, graph_from_trace
from gradstep.app.services.layout import lay_out, layout_trace, to_dot
from app_fakes import sample_trace
from gradstep.runner.trace import defined_ids, new_trace, validate

FIXTURES = sorted((Path(__file__).parents[1] / "fixtures" / "traces").glob("*.json"))


def svg_ids(svg: str, cls: str) -> list[str]:
    return re.findall(rf'<g id="([^"]+)" class="{cls}[ "]', svg)


def test_sample_trace_gives_torchviz_vocabulary():
    g = graph_from_trace(sample_trace())
    kinds = {n.id: n.kind for n in g.nodes.values()}
    assert kinds == {"t0": "leaf", "n1": "accumulate", "n0": "op", "t1": "tensor",
                     "t2": "constant", "n2": "op", "t3": "tensor"}
    assert g.nodes["t0"].label == "x" and g.nodes["t0"].sublabel == "(2,)"
    assert g.nodes["n0"].label == "MulBackward0"
    assert "grad * other" in g.nodes["n0"].tooltip and "saved: other" in g.nodes["n0"].tooltip
    edges = {(e.src, e.dst): e.kind for e in g.edges.values()}
    assert edges == {("t0", "n1"): "variable", ("n1", "n0"): "next", ("n0", "t1"): "output",
                     ("n0", "n2"): "next", ("t2", "n2"): "constant", ("n2", "t3"): "output"}


def test_svg_ids_are_the_trace_ids():
    layout = layout_trace(sample_trace())
    svg = layout["svg"]
    assert sorted(svg_ids(svg, "node")) == sorted(layout["nodes"])
    assert sorted(svg_ids(svg, "edge")) == sorted(e["id"] for e in layout["edges"])
    assert all(re.fullmatch(r"e_[tn]\d+_[tn]\d+", e["id"]) for e in layout["edges"])
    assert svg.startswith("<svg") and "<!--" not in svg and "<?xml" not in svg
    assert 'class="node gs&#45;node gs&#45;leaf"' in svg


def test_geometry_matches_the_drawn_svg():
    layout = layout_trace(sample_trace())
    view = [float(v) for v in re.search(r'viewBox="([^"]+)"', layout["svg"]).group(1).split()]
    assert view[2:] == [layout["width"], layout["height"]]
    tx, ty = map(float, re.search(r"translate\(([^)]+)\)", layout["svg"]).group(1).split())
    for nid, box in layout["nodes"].items():
        assert 0 < box["x"] < layout["width"] and 0 < box["y"] < layout["height"]
        assert box["w"] > 0 and box["h"] > 0
        # the node's first text line is centred on the node's x
        block = layout["svg"].split(f'<g id="{nid}" ', 1)[1].split("</g>", 1)[0]
        text_x = float(re.search(r'<text[^>]* x="([-\d.]+)"', block).group(1))
        assert abs(text_x + tx - box["x"]) < 1.0
    # data flows down: a leaf sits above its AccumulateGrad, which sits above the op
    nodes = layout["nodes"]
    assert nodes["t0"]["y"] < nodes["n1"]["y"] < nodes["n0"]["y"] < nodes["t1"]["y"]


def test_same_trace_same_layout_bytes():
    assert json.dumps(layout_trace(sample_trace())) == json.dumps(layout_trace(sample_trace()))


def test_repeated_input_is_one_counted_edge():
    g = Graph()
    g.add_node("n0", "accumulate", "AccumulateGrad")
    g.add_node("n1", "op", "MulBackward0")
    g.add_edge("n0", "n1", "next")
    g.add_edge("n0", "n1", "next")                  # x * x
    assert len(g.edges) == 1 and g.edges["e_n0_n1"].count == 2
    assert "×2" in lay_out(g)["svg"]


def test_labels_are_text_never_markup():
    g = Graph()
    g.add_node("t0", "leaf", "<b>x</b>", "(1,)", tooltip='a "quoted" <tip>')
    svg = lay_out(g)["svg"]
    assert "<b>" not in svg and "&lt;b&gt;x&lt;/b&gt;" in svg


def test_unknown_kinds_are_refused():
    with pytest.raises(ValueError):
        Graph().add_node("t0", "sparkly", "x")
    with pytest.raises(ValueError):
        Graph().add_edge("t0", "n0", "sideways")


def _op(seq, out_id, node, inputs, *, in_backward=False, grad_mode=True, new_nodes=()):
    return {"seq": seq, "kind": "op", "line": 1, "op": "mul", "inputs": inputs,
            "output": {"id": out_id, "name": None, "shape": [], "dtype": "torch.float32",
                       "requires_grad": node is not None, "is_leaf": node is None,
                       "grad_fn": node["id"] if node else None,
                       "value": {"shape": [], "dtype": "torch.float32", "data": 1.0,
                                 "repr": None}},
            "node": node, "new_nodes": list(new_nodes), "grad_mode": grad_mode,
            "in_backward": in_backward}


def test_no_grad_results_stand_outside_and_backward_arithmetic_is_not_drawn():
    t = sample_trace()
    end = t["events"].pop()
    n = len(t["events"])
    t["events"].append(_op(n, "t4", None, ["t3", "t0"], grad_mode=False))     # under no_grad
    t["events"].append(_op(n + 1, "t5", None, ["t3"], in_backward=True))       # inside backward
    t["events"].append({**end, "seq": n + 2})
    validate(t)
    g = graph_from_trace(t)
    assert g.nodes["t4"].kind == "constant"
    assert g.edges["e_t3_t4"].kind == "constant" and g.edges["e_t0_t4"].kind == "constant"
    assert "t5" not in g.nodes


def test_elided_stretches_still_contribute_their_tensors():
    t = sample_trace()
    end = t["events"].pop()
    carried = _op(0, "t4", {"id": "n3", "name": "SumBackward0", "next_functions": [["n2", 0]],
                            "saved": [], "rule": None}, ["t3"])
    t["events"].append({"seq": len(t["events"]), "kind": "elided", "line": None,
                        "reason": "detail_window", "passes": [1, 2], "counts": {"op": 1},
                        "carried": [carried], "updates": [], "series": [], "stdout": "",
                        "warnings": []})
    t["events"].append({**end, "seq": len(t["events"])})
    validate(t)
    g = graph_from_trace(t)
    assert g.nodes["n3"].label == "SumBackward0" and "e_n2_n3" in g.edges


def test_a_tensor_described_again_takes_the_new_description():
    t = new_trace("", "main.py")
    base = {"id": "t0", "name": "p", "shape": [2], "dtype": "torch.float32",
            "requires_grad": False, "is_leaf": True, "grad_fn": None,
            "value": {"shape": [2], "dtype": "torch.float32", "data": [1, 2], "repr": None}}
    t["events"] = [
        {"seq": 0, "kind": "tensor", "line": 1, "how": "tensor", "grad_mode": True,
         "tensor": base},
        {"seq": 1, "kind": "tensor", "line": 2, "how": "requires_grad_", "grad_mode": True,
         "tensor": {**base, "requires_grad": True}},
        {"seq": 2, "kind": "end", "line": None, "exit_code": 0, "counts": {}}]
    validate(t)
    assert graph_from_trace(t).nodes["t0"].kind == "leaf"


def test_dot_source_uses_trace_ids_as_names():
    source = to_dot(graph_from_trace(sample_trace())).source
    assert "t0 -> n1" in source and "n1 -> n0" in source
    assert 'id=e_t0_n1' in source or 'id="e_t0_n1"' in source


def test_the_golden_traces_are_there():
    assert len(FIXTURES) >= 5


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_golden_traces_lay_out_everything_they_define(path):
    trace = json.loads(path.read_text(encoding="utf-8"))
    layout = layout_trace(trace)
    # a loop's iterations are drawn one at a time: every id is in some picture, or is the
    # alias of a box of one
    pictures = [layout, *layout["views"]]
    drawn = {i for p in pictures for i in p["nodes"]}
    drawn |= {i for it in layout["iterations"] for i in (it.get("alias") or {}).values()}
    # backward arithmetic without create_graph records no node and is deliberately not drawn
    skipped = set()
    for ev in trace["events"]:
        for e in ev["carried"] if ev["kind"] == "elided" else [ev]:
            if e["kind"] == "op" and e["in_backward"] and e["node"] is None:
                skipped.add(e["output"]["id"])
    defined = {i for ev in trace["events"] for i in defined_ids(ev)} - skipped
    # side computations (unnamed tensors outside the graph that never meet it) are left out
    side = defined - drawn
    assert all(i in unnamed_constants(trace) for i in side), side - unnamed_constants(trace)
    for picture in pictures:
        assert sorted(svg_ids(picture["svg"], "node")) == sorted(picture["nodes"])


def unnamed_constants(trace: dict) -> set[str]:
    """Ids of the tensors a trace shows without a name, a grad_fn or requires_grad."""
    found = set()
    for ev in trace["events"]:
        for e in ev["carried"] if ev["kind"] == "elided" else [ev]:
            t = e.get("tensor") if e["kind"] == "tensor" else e.get("output")
            if isinstance(t, dict) and not (t["name"] or t["grad_fn"] or t["requires_grad"]):
                found.add(t["id"])
    return found


def test_side_computations_are_not_drawn_but_what_meets_the_graph_is():
    trace = json.loads((FIXTURES[0].parent / "s000_while_norm_vjp.json").read_text("utf-8"))
    g = graph_from_trace(trace)
    names = {n.label for n in g.nodes.values()}
    # `while y.data.norm() < 1000` made 10 `y.data` tensors and 10 norms: none is drawn
    assert "tensor" not in names and not any(n.kind == "constant" and not n.named
                                             for n in g.nodes.values())
    assert {"x", "y", "v", "AccumulateGrad", "MulBackward0"} <= names
    # a constant factor that meets the graph stays, and so does a run with no graph at all
    t = sample_trace()
    for ev in t["events"]:      # the sample's constant `c`, now unnamed
        if ev["kind"] == "tensor" and ev["tensor"]["id"] == "t2":
            ev["tensor"]["name"] = None
    kept = graph_from_trace(t)
    assert kept.nodes["t2"].kind == "constant" and not kept.nodes["t2"].named
    alone = Graph()
    alone.add_node("t0", "constant", "tensor", "(3,)")
    alone.drop_side_computations()
    assert list(alone.nodes) == ["t0"]


def test_a_parameter_the_program_replaced_is_not_drawn():
    # `self.out.weight = self.embed.weight`: the Linear's own weight is made in the library
    # step and then dropped; nothing names or uses it, so no box could say what it is
    source = ("import torch\nimport torch.nn as nn\nemb = nn.Embedding(4, 3)\n"
              "out = nn.Linear(3, 4, bias=False)\nout.weight = emb.weight\n"
              "loss = out(emb(torch.tensor([1]))).sum()\nloss.backward()\n")
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "layout_regen", Path(__file__).resolve().parents[1] / "fixtures" / "traces" / "regen.py")
    regen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(regen)
    trace, _, code = regen.record_program(source, "main.py")
    assert code == 0
    g = graph_from_trace(trace)
    leaves = [n.label for n in g.nodes.values() if n.kind in ("leaf", "param")]
    assert leaves == ["emb.weight"], leaves
    # a leaf alone in a run is still drawn: it is all there is
    alone = Graph()
    alone.add_node("t0", "leaf", "tensor", "(3,)")
    alone.drop_lone_leaves()
    assert list(alone.nodes) == ["t0"]


def chain(boxes: int) -> Graph:
    """A leaf, its AccumulateGrad, then a chain of ops: `boxes` boxes in all."""
    g = Graph()
    g.add_node("t0", "leaf", "x", "(3,)")
    g.add_node("n0", "accumulate", "AccumulateGrad")
    g.add_edge("t0", "n0", "variable")
    for i in range(1, boxes - 1):
        g.add_node(f"n{i}", "op", "MulBackward0")
        g.add_edge(f"n{i - 1}", f"n{i}", "next")
    return g


def test_big_layouts_run_in_a_child_and_match_the_in_process_ones():
    from gradstep.app.services.dot_process import DotProcess

    graph = chain(40)
    runner = DotProcess(timeout=60, inline_max=10)
    try:
        assert runner._executor is None
        far = lay_out(graph, dot_runner=runner)
        assert runner._executor is not None          # it went to the child
        assert far == lay_out(graph)
    finally:
        runner.close()


def test_a_layout_past_its_time_limit_is_stopped_and_the_next_one_works():
    from gradstep.app.services.dot_process import DotProcess, LayoutTimeout

    runner = DotProcess(timeout=0.001, inline_max=10)  # less than starting a child takes
    try:
        with pytest.raises(LayoutTimeout, match="took longer than"):
            lay_out(chain(40), dot_runner=runner)
        assert runner._executor is None              # the stuck child was discarded
        runner.timeout = 60
        assert len(lay_out(chain(40), dot_runner=runner)["nodes"]) == 40
    finally:
        runner.close()


def test_small_layouts_stay_in_process():
    from gradstep.app.services.dot_process import DotProcess

    runner = DotProcess(timeout=60, inline_max=150)
    lay_out(chain(20), dot_runner=runner)
    assert runner._executor is None
    runner.close()


def test_layout_cap_refuses_before_running_dot():
    from gradstep.app.services.layout import GraphTooLarge

    with pytest.raises(GraphTooLarge, match="40 boxes; the server draws at most 39"):
        lay_out(chain(40), max_nodes=39)


def test_dot_effort_is_reduced_only_for_big_graphs():
    from gradstep.app.services.layout import effort

    assert effort(200) == {}
    assert effort(300)["nslimit"] == "1" and effort(300)["mclimit"] == "0.5"
    assert effort(3000)["mclimit"] == "0.2"
    assert "nslimit=1" in to_dot(chain(300)).source
    assert "nslimit" not in to_dot(chain(30)).source
