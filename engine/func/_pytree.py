"""The structures vmap matches its `in_dims` and `out_dims` against, as PyTorch's pytrees.

Unlike `_tree.py` (which lists only tensors), every value that is not a tuple, list, dict or
named tuple is a leaf here, numbers and None included: `vmap(torch.sum)(x, 0)` maps over the
0 too and refuses it, as PyTorch does. A spec is `None` for a leaf, else
`(type, context, [child specs])`; `spec_repr` prints it as PyTorch's `TreeSpec`, which
vmap's errors show.
"""
from __future__ import annotations


def _is_named(value) -> bool:
    return isinstance(value, tuple) and hasattr(type(value), "_fields")


def _node(value) -> tuple | None:
    """(type, context, children) of a container, None for a leaf."""
    if _is_named(value):
        return type(value), None, list(value)
    if isinstance(value, (tuple, list)):
        return type(value), None, list(value)
    if isinstance(value, dict):
        return dict, list(value), list(value.values())
    return None


def flatten(tree) -> tuple:
    """(the leaves of `tree` in order, its spec)."""
    leaves: list = []

    def walk(value):
        node = _node(value)
        if node is None:
            leaves.append(value)
            return None
        kind, context, children = node
        return (kind, context, [walk(c) for c in children])
    return leaves, walk(tree)


def unflatten(leaves, spec):
    """The structure `spec` describes, with `leaves` in its leaves' places."""
    it = iter(leaves)

    def build(s):
        if s is None:
            return next(it)
        kind, context, children = s
        values = [build(c) for c in children]
        if kind is dict:
            return dict(zip(context, values))
        if hasattr(kind, "_fields"):
            return kind(*values)
        return kind(values)
    return build(spec)


def num_leaves(spec) -> int:
    return 1 if spec is None else sum(num_leaves(c) for c in spec[2])


def spec_repr(spec, indent: int = 0) -> str:
    """PyTorch's `repr(TreeSpec)`: `*` for a leaf, each further child on a line of its own."""
    if spec is None:
        return "*"
    kind, context, children = spec
    inner = ""
    if children:
        indent += 2
        parts = [spec_repr(c, indent) for c in children]
        inner = parts[0] + ("," if len(parts) > 1 else "") + ",".join(
            "\n" + " " * indent + p for p in parts[1:])
    return f"TreeSpec({kind.__name__}, {context}, [{inner}])"


def broadcast_to(dims, spec) -> list | None:
    """`dims` (an int or None for a whole subtree, or a structure of them) given per leaf of
    `spec`, or None when the two structures do not match (PyTorch's
    `_broadcast_to_and_flatten`)."""
    node = _node(dims)
    if node is None:
        return [dims] * num_leaves(spec)
    if spec is None:
        return None
    kind, context, children = node
    if kind is not spec[0] or context != spec[1] or len(children) != len(spec[2]):
        return None
    out: list = []
    for child, child_spec in zip(children, spec[2]):
        flat = broadcast_to(child, child_spec)
        if flat is None:
            return None
        out += flat
    return out
