"""The graph of a whole program as a file: `gradstep render FILE -o graph.svg` and /api/render.

torchviz's `make_dot(y)` draws the graph behind one tensor and needs a system Graphviz;
this draws everything a program built, from its trace, with the Graphviz inside the
pygraphviz wheel. Formats: svg (standalone), png, dot (the source, for your own tools).

Example:
    $ gradstep render examples/backward.py -o graph.svg
    $ gradstep render examples/backward.py -o - -f dot | head -3
"""
from __future__ import annotations

import sys
from pathlib import Path

from gradstep.app.services.graph import graph_from_trace
from gradstep.app.services.groups import assign_groups
from gradstep.app.services.layout import GRAPHVIZ_LOCK, GraphTooLarge, clean_svg, to_dot

FORMATS = ("svg", "png", "dot")
MEDIA_TYPES = {"svg": "image/svg+xml", "png": "image/png", "dot": "text/vnd.graphviz"}
_XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'


def render_trace(trace: dict, fmt: str = "svg", max_nodes: int | None = None,
                 dot_runner=None) -> bytes:
    """Draw a trace's graph as svg, png or dot bytes (GraphTooLarge above `max_nodes`).
    `dot_runner` (a DotProcess) moves large drawings out of the calling process."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    graph = graph_from_trace(trace)
    graph.groups = assign_groups(trace, graph)     # modules as clusters, as on the page
    if max_nodes is not None and len(graph.nodes) > max_nodes:
        raise GraphTooLarge(f"The graph has {len(graph.nodes)} boxes; the server draws at most "
                            f"{max_nodes}.")
    dot = to_dot(graph).source
    if fmt == "dot":
        return dot.encode("utf-8")
    if dot_runner is not None:
        return dot_runner.run(draw_dot, (dot, fmt), len(graph.nodes))
    return draw_dot(dot, fmt)


def draw_dot(dot: str, fmt: str) -> bytes:
    """Lay out and draw DOT as a standalone svg or png file."""
    import pygraphviz  # loaded on first use: `gradstep --help` must stay instant

    with GRAPHVIZ_LOCK:           # NOTE [one Graphviz call at a time] in layout.py
        agraph = pygraphviz.AGraph(string=dot)
        agraph.layout(prog="dot")
        out = agraph.draw(format=fmt)
    return standalone_svg(clean_svg(out.decode("utf-8"))) if fmt == "svg" else out


def standalone_svg(svg: str) -> bytes:
    """An inlinable SVG (as in a run's layout) as a file of its own."""
    return (_XML_HEAD + svg).encode("utf-8")


def format_for(output: str, fmt: str | None) -> str:
    """The explicit format, else the output file's extension, else svg."""
    if fmt:
        return fmt
    suffix = Path(output).suffix.lower().lstrip(".")
    return suffix if suffix in FORMATS else "svg"


def render_file(file: str, output: str = "graph.svg", fmt: str | None = None) -> int:
    """Run FILE in the sandbox and write its graph; the exit code for `gradstep render`.

    A program that stops with an exception still gets its picture (of what it built before
    the error), with the error on stderr; the exit code is 0 whenever a file was written.
    """
    from gradstep.runner import run_program

    fmt = format_for(output, fmt)
    try:
        source = Path(file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"gradstep render: cannot read {file}: {exc}", file=sys.stderr)
        return 2
    result = run_program(source, filename=Path(file).name, trace=True)
    if result.trace is None:
        print(f"gradstep render: {file} produced no trace", file=sys.stderr)
        sys.stderr.write(result.stderr)
        return 1
    if result.error:
        print(f"gradstep render: note: the program stopped with {result.error['type']}: "
              f"{result.error['message']}; drawing what it built before that", file=sys.stderr)
    data = render_trace(result.trace, fmt)
    if output == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        Path(output).write_bytes(data)
    return 0
