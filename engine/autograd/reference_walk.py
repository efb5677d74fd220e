"""The backward pass said plainly: what `walk.run` computes, without its fast paths.

Read this first, then walk.py. A node's uid grows with creation, and an op's node is always
made after the op nodes its inputs came from, so visiting the reachable op nodes newest first
is a topological order (PyTorch's ready queue runs them in the same order). A leaf's
AccumulateGrad is made when the leaf is first used, so its uid says nothing; it has no
`next_functions`, and runs after every op node has handed it its gradient. Each node receives the
sum of the gradients flowing into each of its outputs, applies its backward, and hands one
gradient to each of its `next_functions`; an AccumulateGrad node is a leaf's sink.

No hooks, no freeing, no `create_graph`: tests/engine/test_reference_walk.py runs the fast
walk against this one on every golden program and wants the same gradients.
"""
from __future__ import annotations

from ..graph import AccumulateGrad
from ..grad_mode import no_grad


def gradients(root, output_nr: int, seed) -> dict:
    """{leaf tensor: its gradient} for one backward pass that starts at output `output_nr` of
    the node `root` (a tensor's grad_fn, or a leaf's AccumulateGrad) with the gradient `seed`.
    """
    nodes, stack = {root}, [root]
    while stack:                                   # every node reachable from the root
        for fn, _ in stack.pop().next_functions:
            if fn is not None and fn not in nodes:
                nodes.add(fn)
                stack.append(fn)
    incoming = {root: {output_nr: seed}}    # node -> {output number: gradient}
    leaves = {}
    with no_grad():
        for node in sorted(nodes, key=lambda n: (isinstance(n, AccumulateGrad), -n._uid)):
            received = incoming.pop(node, {})
            if isinstance(node, AccumulateGrad):
                if 0 in received:
                    leaves[node.variable] = received[0]
                continue
            if not received:
                continue                             # nothing flows through this branch
            outs = node.apply(tuple(received.get(nr) for nr in range(node._n_out)))
            for (fn, nr), g in zip(node.next_functions, outs):
                if fn is not None and g is not None:
                    into = incoming.setdefault(fn, {})
                    into[nr] = g if nr not in into else into[nr] + g
    return leaves
