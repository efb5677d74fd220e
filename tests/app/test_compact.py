"""The compact picture: a picture too big for the pane with library modules in it is also
laid out with each innermost library module as one box (app/services/compact.py)."""
from __future__ import annotations

import pytest

from gradstep.app.services.answer_budget import PictureBudget, picture_bytes
from gradstep.app.services.compact import PANE_PT, compact_graph, folded_modules
from gradstep.app.services.graph import Graph
from gradstep.app.services.layout import layout_trace
from test_iterations import MLP, trace_of


@pytest.fixture(scope="module")
def mlp_trace():
    return trace_of(MLP.replace("EPOCHS", "50"))


@pytest.fixture(scope="module")
def mlp_layout(mlp_trace):
    return layout_trace(mlp_trace)


def test_the_mlp_picture_is_too_wide_and_its_compact_one_fits(mlp_layout):
    for picture in (mlp_layout, *mlp_layout["views"]):
        assert picture["width"] > PANE_PT[0]
        small = picture["compact"]
        assert small["width"] <= PANE_PT[0] and small["height"] <= PANE_PT[1]
        assert len(small["nodes"]) < len(picture["nodes"])


def test_each_library_module_is_one_box_titled_like_its_group(mlp_layout):
    small = mlp_layout["compact"]
    full_groups = {g["path"]: (gid, g) for gid, g in mlp_layout["groups"].items()}
    # the modules inside nn.Sequential, not the Sequential around them
    assert sorted(full_groups[p][0] for p in ("model[0]", "model[1]", "model[2]")) \
        == sorted(small["folded"])
    for gid, members in small["folded"].items():
        assert gid in small["nodes"] and not set(members) & set(small["nodes"])
        assert members == full_groups_members(mlp_layout, gid)
        # Graphviz writes the hyphens of a class as character references
        assert f'<g id="{gid}" class="node gs&#45;node gs&#45;module">' in small["svg"]
    assert "model[0] · Linear(4 → 8)" in small["svg"]
    assert small["nodes"]["g_model.5b.0.5d."]["tip"].startswith("model[0] · Linear(4 → 8)")
    # the Sequential stays a group, now around the three boxes
    assert set(small["groups"]["g_model"]["members"]) == set(small["folded"])


def full_groups_members(layout: dict, gid: str) -> list[str]:
    return layout["groups"][gid]["members"]


def test_arrows_from_outside_reach_the_box_and_inside_ones_go(mlp_layout):
    small = mlp_layout["compact"]
    boxes = set(small["folded"])
    ends = {(e["from"], e["to"]) for e in small["edges"]}
    assert len(ends) == len(small["edges"])      # merged arrows are one
    assert all(a in small["nodes"] and b in small["nodes"] and a != b for a, b in ends)
    # the first Linear's weight and bias arrive at its box, which feeds the ReLU's
    into_first = {a for a, b in ends if b == "g_model.5b.0.5d."}
    assert len(into_first) >= 2 and not into_first & boxes
    assert ("g_model.5b.0.5d.", "g_model.5b.1.5d.") in ends


def test_small_pictures_and_user_modules_stay_as_they_are():
    g = Graph(groups={"net": {"label": "net · Net", "parent": None, "user": True}})
    g.add_node("t0", "leaf", "x").group = "net"
    assert folded_modules(g) == {}
    lib = Graph(groups={"m": {"label": "m · ReLU", "parent": None, "user": False}})
    lib.add_node("t0", "leaf", "x")
    lib.add_node("n1", "op", "ReluBackward0").group = "m"
    lib.add_edge("t0", "n1", "next")
    small = compact_graph(lib, folded_modules(lib))
    assert list(small.nodes) == ["t0", "g_m"] and small.nodes["g_m"].label == "m · ReLU"


def test_the_budget_charges_the_compact_picture(mlp_trace):
    budget = PictureBudget(max_bytes=50_000_000)
    layout = layout_trace(mlp_trace, budget=budget)
    # the first picture is the answer's top level, next to the other pictures and the steps
    first = {k: v for k, v in layout.items() if k not in ("views", "steps", "iterations")}
    pictures = (first, *layout["views"])
    compact_bytes = sum(picture_bytes(p["compact"]) for p in pictures)
    assert budget.used == sum(picture_bytes(p) for p in pictures) > compact_bytes > 0


def test_the_server_cache_draws_the_same_compact_picture(mlp_trace, mlp_layout):
    from functools import partial

    from gradstep.app.services.cache import LruCache
    from gradstep.app.services.layout_reuse import lay_out_reusing

    reused = layout_trace(mlp_trace, lay=partial(lay_out_reusing, cache=LruCache(16)))
    small, direct = reused["compact"], mlp_layout["compact"]
    assert small["folded"] == direct["folded"]
    assert small["nodes"].keys() == direct["nodes"].keys()
    assert all(f'id="{i}"' in small["svg"] for i in small["nodes"])
