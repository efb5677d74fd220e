"""How the trace names a tensor: as the program would write it (docs/trace-format.md, "Names").

A tensor bound to a variable is called by that variable; the second tensor bound to the same
variable is `y₂`, the third `y₃` (a loop's `loss` is `loss₃` in its third iteration). A
module's parameters and buffers are called by their path from the variable that holds the
module, written as a learner writes it: `model[0].weight` for a `Sequential` or `ModuleList`
entry, `model.fc1.bias` for an attribute. Inside a module's own methods the module is `self`,
a name the outside never uses, so paths start only from other variables.

Example:
    >>> attribute_path("model", "0.weight"), attribute_path("net", "fc1.bias")
    ('model[0].weight', 'net.fc1.bias')
    >>> nth("y", 1), nth("loss", 12)
    ('y', 'loss₁₂')
"""
from __future__ import annotations

from collections import deque
from collections.abc import Iterator

from gradstep.engine.nn.module import Module

_SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def nth(name: str, n: int) -> str:
    """The n-th tensor bound to `name` (1-based): the first keeps the name as written."""
    return name if n <= 1 else name + str(n).translate(_SUBSCRIPT)


def attribute_path(root: str, dotted: str) -> str:
    """`named_parameters()`'s dotted key as Python code: digits index, identifiers are
    attributes, anything else (a `ModuleDict` key with a space) is a subscript string."""
    out = [root]
    for part in dotted.split("."):
        if part.isdigit():
            out.append(f"[{part}]")
        elif part.isidentifier():
            out.append("." + part)
        else:
            out.append(f"[{part!r}]")
    return "".join(out)


def module_tensors(name: str, module: Module) -> Iterator[tuple]:
    """(tensor, path) for every parameter and buffer under `module`, breadth first, so a
    tensor shared by two submodules is called by its shorter path.

    Reads the registries directly rather than `named_parameters()`, which a program may
    override: naming must never run the program's code.
    """
    seen = set()
    queue = deque([("", module)])
    while queue:                        # iterative: models can nest deeply
        prefix, mod = queue.popleft()
        if id(mod) in seen:
            continue
        seen.add(id(mod))
        d = mod.__dict__
        for registry in ("_parameters", "_buffers"):
            for key, t in (d.get(registry) or {}).items():
                if t is not None:
                    yield t, attribute_path(name, prefix + key)
        for key, sub in (d.get("_modules") or {}).items():
            if isinstance(sub, Module):
                queue.append((prefix + key + ".", sub))


def modules_in(items) -> list:
    """The (name, module) pairs among a namespace's items that a path can start from."""
    return [(k, v) for k, v in items
            if isinstance(v, Module) and k[:1] != "_" and k != "self"]
