"""The elided middle of a long loop: what the windows between the first and the last few
leave behind (docs/trace-format.md, section 9).

`runner/recorder.py` closes a window at the end of each backward pass; windows past
`limits.detail_head` wait in a tail of `limits.detail_tail`, and each one leaving it is absorbed
here. `runner/trace_build.py` renders the summary as one `elided` event.
"""
from __future__ import annotations

import weakref
from collections import Counter
from operator import itemgetter


_kind_of = itemgetter(0)  # a record's kind
_ref = weakref.ref
# Kinds that neither define an id nor change a known tensor: Summary.absorb only counts them.
_DEFINE_NOTHING = frozenset(("node_apply", "graph_freed", "backward_end", "grad_mode", "error",
                             "failure", "transform_begin", "transform_step", "transform_end",
                             "dual_level", "hook"))


class Summary:
    """What the middle windows leave behind: counts, console text, the latest state of the
    tensors they touched, and the records that define ids, in case a kept event needs one.

    Graph nodes are held through weak references: a node that no longer exists can appear in
    no later event, so its op's definition is dropped once no kept window can mention it
    either (`tail` windows after it was first seen dead). Without this a long training loop
    keeps every epoch's graph alive. (Tensor definitions hold only ids and bytes; weak
    references to every tensor would cost more than the records.)
    """

    def __init__(self, tail: int) -> None:
        self.tail = tail
        self.absorbed = 0
        self.counts: Counter[str] = Counter()
        self.first_pass: int | None = None
        self.last_pass: int | None = None
        self.stdout: list[str] = []
        self.warnings: list[tuple] = []
        # tensor id (a str) or node uid (an int) -> [weakref, record, absorbed when found
        # dead, order]: `defs` for definitions tied to a graph node (swept), `kept` for the
        # rest (never swept). An op's output and node share one entry, since they live and
        # die together (NOTE [entries in flight]).
        self.defs: dict = {}
        self.kept: dict = {}
        self.order = 0
        self.updates: dict[str, dict] = {}     # tid -> {"value": snap, "grad": snap|None}

    def absorb(self, window: list) -> None:
        # Runs once per backward pass of a training loop, so it is written for speed: kinds
        # are counted in C, and the records that define nothing return at the first test.
        self.absorbed += 1
        if not window:  # a light window that printed nothing: only the sweep's clock moves
            if self.absorbed % 16 == 0:
                self._prune()
            return
        self.counts.update(map(_kind_of, window))
        defs, kept, order = self.defs, self.kept, self.order
        for rec in window:
            kind = rec[0]
            if kind == "op":
                order += 1
                if rec[6] is None:  # holds no graph object: kept as it is, never swept
                    kept[rec[4]] = [_alive, rec, None, order]
                elif rec[8]:  # it introduced nodes (a leaf's AccumulateGrad): rarer
                    self._absorb_introducing(rec, order)
                else:
                    # the weak form (see _absorb_introducing) of the usual op, built from its
                    # fields: one tuple, where slicing and joining the record make four
                    (_, line, op, n_in, out, fn, node, _, _, mode, in_bw, raw, shape, dtype, rg,
                     fn_name, bound, ins) = rec
                    ref = _ref(node)
                    weak = ("op", line, op, n_in, out, fn, ref, None, (), mode, in_bw, raw,
                            shape, dtype, rg, fn_name, bound, ins)
                    entry = defs[out] = [ref, weak, None, order]
                    if node._uid not in defs:
                        defs[node._uid] = entry
            elif kind in _DEFINE_NOTHING:
                continue
            elif kind == "overflow":  # counted past the window cap: counts only
                self.counts.update(rec[2])
                self.counts["overflow"] -= 1
                if not self.counts["overflow"]:
                    del self.counts["overflow"]
            elif kind == "tensor":  # holds no object: cheap to keep
                order += 1
                kept[rec[2]] = [_alive, rec, None, order]
            elif kind == "accumulate":
                self.updates.setdefault(rec[3], {})["grad"] = rec[7]
            elif kind == "stdout":
                self.stdout.append(rec[2])
            elif kind == "warning":
                # where in the stretch's printed text it came, so the console keeps the order
                self.warnings.append((rec[2], rec[3], rec[1], sum(map(len, self.stdout))))
            elif kind == "backward_begin":
                if self.first_pass is None:
                    self.first_pass = rec[2]
                self.last_pass = rec[2]
            elif kind == "inplace":
                self.updates.setdefault(rec[2], {})["value"] = rec[5]
                order += 1
                if rec[7] is not None:
                    kept.setdefault(rec[7][0]._uid, [_alive, rec, None, order])
                for n, _ in rec[8]:
                    kept.setdefault(n._uid, [_alive, rec, None, order])
            elif kind == "grad_reset":
                self.updates.setdefault(rec[2], {})["grad"] = rec[4]
            elif kind == "optimizer_step":
                for tid, _, after in rec[4]:
                    self.updates.setdefault(tid, {})["value"] = after
        self.order = order
        if self.absorbed % 16 == 0:  # a sweep visits every entry: not after every window
            self._prune()

    def keep(self, rec: tuple) -> None:
        """Keep a `tensor` record made for the stretch without a window of its own (a leaf a
        light window made: runner/recorder_light.py)."""
        self.order += 1
        self.kept[rec[2]] = [_alive, rec, None, self.order]

    def _absorb_introducing(self, rec: tuple, order: int) -> None:
        """An op record whose event introduced nodes besides its own, in the weak form: no
        strong reference to the graph, saves read when rendered; the output lives as long as
        its grad_fn can."""
        defs, node, new_nodes = self.defs, rec[6], rec[8]
        ref = _ref(node)
        refs = tuple([_ref(n) for n, _ in new_nodes])
        weak = rec[:6] + (ref, None, refs) + rec[9:]
        entry = defs[rec[4]] = [ref, weak, None, order]
        if node._uid not in defs:
            defs[node._uid] = entry
        for (n, _), nref in zip(new_nodes, refs):
            if n._uid not in defs:
                defs[n._uid] = [nref, weak, None, order]

    def _prune(self) -> None:
        now, gone = self.absorbed, []
        for key, entry in self.defs.items():
            if entry[0]() is None:
                if entry[2] is None:
                    entry[2] = now
                elif entry[2] != now and now - entry[2] >= self.tail:
                    # (!= now: a shared entry is met twice in a sweep, and with a tail of 0
                    # the second meeting must not count as a sweep later)
                    gone.append(key)
        for key in gone:
            del self.defs[key]
            self.updates.pop(key, None)

    def live_defs(self) -> dict:
        """id key (a tensor id, or ("node", uid) as runner/trace_build.py keys nodes) -> a
        record with strong references again (dead objects' records skipped)."""
        out: dict = {}
        revived: dict = {}
        entries = sorted(list(self.defs.items()) + list(self.kept.items()), key=lambda e: e[1][3])
        for key, (_ref, rec, _, _) in entries:
            if rec[0] == "op" and rec[7] is None:  # weak form: revive (once per record)
                strong = revived.get(id(rec))
                if strong is None:
                    node = rec[6]() if rec[6] is not None else None
                    new = tuple((n, n._saved) for n in (r() for r in rec[8]) if n is not None)
                    if rec[6] is not None and node is None:
                        if not new:
                            continue
                        # The op's node is gone but a node it introduced lives on (a leaf's
                        # AccumulateGrad, used again later): carry the op without its node,
                        # so that the survivor is still defined before later events name it.
                        strong = rec[:5] + (None, None, (), new) + rec[9:]
                    else:
                        strong = rec[:6] + (
                            node, node._saved if node is not None else (), new) + rec[9:]
                    revived[id(rec)] = strong
                rec = strong
            out[("node", key) if type(key) is int else key] = rec
        return out


def _alive():
    return True


# NOTE [entries in flight]
# In a training loop each epoch's graph dies within an epoch or two, but its definitions wait
# here until a sweep has seen them dead for `tail` windows: 16 to 32 windows' worth of entries
# are alive at any time. The cyclic collector runs when allocations outnumber deallocations by
# its threshold, and every such entry that outlives a collection pushes the next one closer,
# so the entries' count sets how often it runs during a traced W2. Each op therefore leaves
# one list (its output's and its node's keys share it) and no key tuple (a node's key is its
# uid, an int, where a tensor's is its id, a str).
