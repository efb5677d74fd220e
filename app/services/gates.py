"""The LSTM's gates named in the picture: which box is the input, forget, cell or output gate.

PyTorch's LSTM cell (`torch.lstm_cell`, and every step of an `nn.LSTM` that is recorded op
by op) computes all four gates in one matrix product and cuts it with `unsafe_chunk(4, 1)`:
one UnsafeSplitBackward0 with four outputs, in the order i, f, g, o. The input, forget and
output gates are the sigmoid of their piece, the cell gate the tanh of its piece. So inside an
`nn.LSTMCell` or `nn.LSTM` call, the result of the sigmoid or tanh of piece k of a four-way
unsafe_split is gate k, and its box is labelled so. The node names stay PyTorch's
(SigmoidBackward0, TanhBackward0); only the tensor boxes are named. A float32 `nn.LSTM`
layer is one fused node (MkldnnRnnLayerBackward0) with no gates to name.

Example:
    >>> GATES["f"]
    'forget gate'
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from gradstep.app.services.trace_ops import op_events, shape_text

if TYPE_CHECKING:   # graph.py calls name_gates: a type only, no import at run time
    from gradstep.app.services.graph import Graph

# PyTorch's order of the four pieces (torch.nn.LSTM's documentation: i, f, g, o)
ORDER = ("i", "f", "g", "o")
GATES = {"i": "input gate", "f": "forget gate", "g": "cell gate", "o": "output gate"}
_ACTIVATION = {"i": "sigmoid", "f": "sigmoid", "g": "tanh", "o": "sigmoid"}
_LSTM_TYPES = ("LSTMCell", "LSTM")


def name_gates(trace: dict, graph: Graph) -> None:
    """Label the gate boxes of every LSTM cell step in `graph` (made from `trace`)."""
    spans = [(s["t"][0], s["t"][1]) for s in trace.get("scopes") or []
             if s.get("type") in _LSTM_TYPES]
    if not spans:
        return
    pieces: dict[str, list[str]] = {}    # unsafe_split node id -> its outputs, in order
    piece_of: dict[str, str] = {}        # output id -> the unsafe_split node it came from
    for ev in op_events(trace["events"]):
        out, node = ev["output"], ev.get("node")
        if ev["op"] == "unsafe_split" and node is not None and _inside(out["id"], spans):
            pieces.setdefault(node["id"], []).append(out["id"])
            piece_of[out["id"]] = node["id"]
            continue
        if ev["op"] not in ("sigmoid", "tanh") or len(ev["inputs"]) != 1:
            continue
        src = ev["inputs"][0]
        split = piece_of.get(src) if isinstance(src, str) else None
        if split is None or len(pieces[split]) != len(ORDER):
            continue
        letter = ORDER[pieces[split].index(src)]
        box = graph.nodes.get(out["id"])
        if _ACTIVATION[letter] == ev["op"] and box is not None and not box.named:
            box.label, box.gate = GATES[letter], letter
            box.sublabel = shape_text(out["shape"])
            box.tooltip = f"{GATES[letter]} {letter}: {box.tooltip}"


def _inside(tid: str, spans: list[tuple[int, int]]) -> bool:
    k = int(tid[1:]) if tid[1:].isdigit() else -1
    return any(lo <= k < hi for lo, hi in spans)
