"""How long Graphviz `dot` (in-process, through pygraphviz) takes to lay out autograd graphs
of 10 … 3000 boxes, and how long each stage costs: building DOT, layout, SVG, geometry.

    python bench/bench_layout.py              # the table in docs/layout.md
    python bench/bench_layout.py --sizes 300 --repeat 10

The graphs are synthetic traces shaped like real ones: leaves with their AccumulateGrad, ops
with two inputs drawn from recent results (a deep, MLP-like DAG), each op's output tensor,
and a constant input now and then. "boxes" counts every drawn node (tensors + grad_fns).
Target: a 300-box layout in at most 200 ms.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

# This checkout's code, not whichever one is installed: run from another checkout's bench/
# to time that checkout (python runs a script with its own folder first on sys.path).
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gradstep.runner.trace import new_trace


def synthetic_trace(boxes: int, seed: int = 0) -> dict:
    """A valid trace whose graph has about `boxes` boxes."""
    rng = random.Random(seed)
    trace = new_trace("# synthetic\n", "bench.py")
    events, tensors, nodes = trace["events"], [0], [0]

    def value(shape):
        return {"shape": shape, "dtype": "torch.float32", "data": None, "repr": None}

    def tensor(tid, *, rg, leaf, grad_fn, name=None):
        return {"id": f"t{tid}", "name": name, "shape": [3], "dtype": "torch.float32",
                "requires_grad": rg, "is_leaf": leaf, "grad_fn": grad_fn, "value": value([3])}

    results: list[tuple[str, str]] = []   # (tensor id, node id) of graph tensors
    count = 0
    while count < boxes:
        if not results or rng.random() < 0.15:      # a new leaf and its AccumulateGrad
            tid, nid = tensors[0], nodes[0]
            tensors[0] += 1
            nodes[0] += 1
            events.append({"kind": "tensor", "line": 1, "how": "randn", "grad_mode": True,
                           "tensor": tensor(tid, rg=True, leaf=True, grad_fn=None,
                                            name=f"w{tid}")})
            results.append((f"t{tid}", f"n{nid}"))
            pending_acc = {"id": f"n{nid}", "name": "AccumulateGrad", "variable": f"t{tid}",
                           "next_functions": [], "saved": [], "rule": None}
            events[-1]["_acc"] = pending_acc
            count += 2
            continue
        a, b = rng.choice(results[-6:]), rng.choice(results[-12:])
        new_nodes = [e.pop("_acc") for e in events if "_acc" in e
                     and e["_acc"]["id"] in (a[1], b[1])]
        inputs = [a[0], b[0]]
        if rng.random() < 0.1:                      # a constant operand
            cid = tensors[0]
            tensors[0] += 1
            events.append({"kind": "tensor", "line": 2, "how": "tensor", "grad_mode": True,
                           "tensor": tensor(cid, rg=False, leaf=True, grad_fn=None)})
            inputs.append(f"t{cid}")
            count += 1
        tid, nid = tensors[0], nodes[0]
        tensors[0] += 1
        nodes[0] += 1
        node = {"id": f"n{nid}", "name": rng.choice(["MulBackward0", "AddBackward0",
                                                     "TanhBackward0", "MmBackward0"]),
                "next_functions": [[a[1], 0], [b[1], 0]],
                "saved": [{"name": "self", "tensor": a[0], "value": None, "freed": False}],
                "rule": "grad * other"}
        events.append({"kind": "op", "line": 3, "op": "mul", "inputs": inputs,
                       "output": tensor(tid, rg=True, leaf=False, grad_fn=f"n{nid}"),
                       "node": node, "new_nodes": new_nodes, "grad_mode": True,
                       "in_backward": False})
        results.append((f"t{tid}", f"n{nid}"))
        count += 2
    for e in events:
        e.pop("_acc", None)
    events.append({"kind": "end", "line": None, "exit_code": 0, "counts": {}})
    for i, e in enumerate(events):
        e["seq"] = i
    return trace


def measure(boxes: int, repeat: int) -> dict:
    """Median wall and CPU milliseconds per stage. CPU time is reported too because the wall
    time on a shared machine moves with its neighbours' load; dot is single-threaded."""
    import pygraphviz

    from gradstep.app.services.graph import graph_from_trace
    from gradstep.app.services.layout import lay_out, to_dot

    graph = graph_from_trace(synthetic_trace(boxes))
    stages: dict[str, list[float]] = {"dot_build": [], "layout": [], "total": [], "cpu": []}
    for _ in range(repeat):
        t0 = time.perf_counter()
        source = to_dot(graph).source
        t1 = time.perf_counter()
        agraph = pygraphviz.AGraph(string=source)
        agraph.layout(prog="dot")
        t2 = time.perf_counter()
        c2 = time.process_time()
        lay_out(graph)
        stages["cpu"].append(time.process_time() - c2)
        stages["total"].append(time.perf_counter() - t2)  # lay_out: DOT, layout, SVG, geometry
        stages["dot_build"].append(t1 - t0)
        stages["layout"].append(t2 - t1)
    return {"boxes": len(graph.nodes), "edges": len(graph.edges),
            **{k: statistics.median(v) * 1000 for k, v in stages.items()}}


def write_dot(boxes: int, path: str) -> None:
    """The DOT of a synthetic graph, for timing other Graphviz builds on the same input."""
    from gradstep.app.services.graph import graph_from_trace
    from gradstep.app.services.layout import to_dot

    with open(path, "w", encoding="utf-8") as f:
        f.write(to_dot(graph_from_trace(synthetic_trace(boxes))).source)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="*", default=[10, 30, 100, 300, 1000, 3000])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--write-dot", metavar="DIR", help="write DIR/graph-N.dot and stop")
    args = ap.parse_args()
    if args.write_dot:
        for size in args.sizes:
            write_dot(size, f"{args.write_dot}/graph-{size}.dot")
        return
    print(f"{'boxes':>6} {'edges':>6} {'DOT build ms':>13} {'dot layout ms':>14} "
          f"{'lay_out ms':>11} {'lay_out CPU ms':>15}")
    for size in args.sizes:
        m = measure(size, args.repeat if size <= 1000 else max(1, args.repeat // 3))
        print(f"{m['boxes']:>6} {m['edges']:>6} {m['dot_build']:>13.1f} {m['layout']:>14.1f} "
              f"{m['total']:>11.1f} {m['cpu']:>15.1f}", flush=True)


if __name__ == "__main__":
    main()
