"""`gradstep render FILE` and /api/render: a standalone picture whose ids are the trace's."""
from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from gradstep.app.services.graph import graph_from_trace
from gradstep.app.services.render import format_for, render_trace
from app_testing import ROOT
from app_fakes import sample_trace
from gradstep.runner import run_program

PROGRAM = """import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
y = (x * w).sum()
y.backward()
print(x.grad)
"""
SVG_NS = "{http://www.w3.org/2000/svg}"


def gradstep(*args, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gradstep", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120)


def group_ids(svg_bytes: bytes, cls: str) -> set[str]:
    root = ET.fromstring(svg_bytes)
    return {g.get("id") for g in root.iter(f"{SVG_NS}g")
            if (g.get("class") or "").split(" ")[0] == cls}


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    d = tmp_path_factory.mktemp("render")
    (d / "prog.py").write_text(PROGRAM, encoding="utf-8")
    return d


def test_cli_writes_a_valid_svg_whose_ids_match_the_trace(program):
    done = gradstep("render", "prog.py", "-o", "graph.svg", cwd=program)
    assert done.returncode == 0, done.stderr
    data = (program / "graph.svg").read_bytes()
    assert data.startswith(b"<?xml") and b"<svg" in data
    trace = run_program(PROGRAM, filename="prog.py").trace
    graph = graph_from_trace(trace)
    assert group_ids(data, "node") == set(graph.nodes)
    assert group_ids(data, "edge") == set(graph.edges)
    assert {"MulBackward0", "SumBackward0", "AccumulateGrad"} <= {
        n.label for n in graph.nodes.values()}
    # the leaves are drawn with their names
    text = "".join(t.text or "" for t in ET.fromstring(data).iter(f"{SVG_NS}text"))
    assert "x" in text and "w" in text and "(2,)" in text


def test_cli_png_and_dot(program):
    assert gradstep("render", "prog.py", "-o", "g.png", cwd=program).returncode == 0
    assert (program / "g.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    done = gradstep("render", "prog.py", "-o", "-", "-f", "dot", cwd=program)
    assert done.returncode == 0
    assert done.stdout.startswith("digraph autograd {") and "AccumulateGrad" in done.stdout


def test_cli_draws_what_a_failing_program_built(tmp_path):
    (tmp_path / "bad.py").write_text(
        "import torch\nx = torch.ones(2, requires_grad=True)\ny = (x * 2).sum()\n"
        "y.backward()\ny.backward()\n", encoding="utf-8")
    done = gradstep("render", "bad.py", "-o", "bad.svg", cwd=tmp_path)
    assert done.returncode == 0
    assert "RuntimeError" in done.stderr and "drawing what it built" in done.stderr
    assert "MulBackward0" in (tmp_path / "bad.svg").read_text(encoding="utf-8")


def test_cli_reports_an_unreadable_file(tmp_path):
    done = gradstep("render", "missing.py", cwd=tmp_path)
    assert done.returncode == 2 and "cannot read missing.py" in done.stderr


def test_format_from_extension():
    assert format_for("a.PNG", None) == "png" and format_for("a.dot", None) == "dot"
    assert format_for("graph", None) == "svg" and format_for("a.png", "svg") == "svg"
    with pytest.raises(ValueError):
        render_trace(sample_trace(), "gif")


def test_api_render_post_and_get(client):
    r = client.post("/api/render", json={"code": "print(1)"})
    assert r.status_code == 200 and r.headers["content-type"] == "image/svg+xml"
    assert group_ids(r.content, "node") == {"t0", "t1", "t2", "t3", "n0", "n1", "n2"}
    r = client.get("/api/render", params={"code": "print(1)", "format": "dot"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/vnd.graphviz")
    assert r.text.startswith("digraph")
    r = client.get("/api/render", params={"code": "print(1)", "format": "png"})
    assert r.content[:4] == b"\x89PNG"
    assert client.get("/api/render", params={"code": "x", "format": "gif"}).status_code == 422
    assert client.get("/api/render").status_code == 422


def test_api_render_through_the_real_runner(real_client):
    r = real_client.post("/api/render", json={"code": PROGRAM})
    assert r.status_code == 200
    assert "MulBackward0" in r.text and "<script" not in r.text


def test_the_command_is_installed():
    done = subprocess.run([sys.executable, "-m", "gradstep", "render", "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "svg" in done.stdout


def test_api_svg_is_the_run_layouts_picture_standing_alone(client):
    code = "print('same picture')"
    layout = client.post("/api/run", json={"code": code}).json()["layout"]
    svg = client.post("/api/render", json={"code": code}).text
    assert svg.startswith('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<svg')
    # the same picture as the page's: every shape in the same place
    shapes = re.compile(r"<(?:path|polygon|ellipse)\b[^>]*>")
    assert shapes.findall(svg) and shapes.findall(svg) == shapes.findall(layout["svg"])
    assert shapes.findall(svg) == shapes.findall(render_trace(sample_trace(code), "svg").decode())
    # standing alone: each box says what it is on hover, the font is named; the page's copy
    # has neither title nor link, its descriptions are data
    root = ET.fromstring(svg.encode())
    titles = {g.get("id"): g.findtext(f"{SVG_NS}title") for g in root.iter(f"{SVG_NS}g")
              if (g.get("class") or "").startswith("node")}
    assert titles["t0"] == layout["nodes"]["t0"]["tip"] and titles["t0"].startswith("x: ")
    assert all(titles.values())
    assert root.get("font-family") == "Helvetica,Arial,sans-serif"
    assert "<title>" not in layout["svg"] and "<a " not in layout["svg"]
    # the command line's file is Graphviz's full SVG: titles, links and fonts per label
    cli = render_trace(sample_trace(code), "svg").decode()
    assert "<title>t0</title>" in cli and 'xlink:title="x: ' in cli
    assert 'font-family="Helvetica,Arial,sans-serif" font-size' in cli


def test_an_unnamed_result_first_met_as_a_constant_shows_its_shape_once():
    # the Function's output is reported first as a tensor its forward made outside any graph,
    # then as the op's output: its box says (2,) once, as every unnamed result's does
    source = ("import torch\nclass Sq(torch.autograd.Function):\n    @staticmethod\n"
              "    def forward(ctx, x):\n        ctx.save_for_backward(x)\n"
              "        return x * x\n    @staticmethod\n    def backward(ctx, g):\n"
              "        x, = ctx.saved_tensors\n        return 2 * x * g\n"
              "a = torch.tensor([1.0, 2.0], requires_grad=True)\n"
              "Sq.apply(a).backward(torch.tensor([1.0, 0.5]))\n")
    graph = graph_from_trace(run_program(source, filename="prog.py", trace=True).trace)
    out = next(n for n in graph.nodes.values() if n.kind == "tensor")
    assert (out.label, out.sublabel) == ("(2,)", "")
