"""The nested arguments torch.func accepts: a tensor, or tuples, lists and dicts of them (a
module's parameters passed as a dict to `functional_call`, several inputs as a tuple).

`flatten` lists the tensors in a fixed order with a spec, `unflatten` rebuilds the same
structure from a list; what is not a tensor is kept as it is.
"""
from __future__ import annotations

from ..tensor import Tensor


def flatten(tree) -> tuple:
    """(the tensors of `tree` in order, the spec `unflatten` needs)."""
    leaves: list = []

    def spec_of(node):
        if isinstance(node, Tensor):
            leaves.append(node)
            return None
        if isinstance(node, (tuple, list)):
            return (type(node), [spec_of(item) for item in node])
        if isinstance(node, dict):
            return (dict, [(key, spec_of(value)) for key, value in node.items()])
        return ("const", node)
    return leaves, spec_of(tree)


def unflatten(leaves, spec):
    """The structure `spec` describes with `leaves` in its tensors' places."""
    it = iter(leaves)

    def build(s):
        if s is None:
            return next(it)
        kind, items = s
        if kind == "const":
            return items
        if kind is dict:
            return {key: build(sub) for key, sub in items}
        return kind(build(sub) for sub in items)
    return build(spec)
