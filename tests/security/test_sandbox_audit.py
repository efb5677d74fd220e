"""The audit of reachable callables (docs/sandbox.md) is complete and current.

`dev/sandbox_audit.py` walks everything a program reaches by name and classes each callable
as pure, guarded or refused. These tests fail when the table in the doc differs from the walk
(a new callable arrived: rerun `python dev/sandbox_audit.py --write` and review its verdict),
and when a name or module has no verdict at all.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def audit():
    spec = importlib.util.spec_from_file_location("sandbox_audit", ROOT / "dev" /
                                                  "sandbox_audit.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def rows(audit):
    return audit.walk()


def test_every_reachable_callable_is_in_the_doc_table(audit, rows):
    doc = audit.doc_table((ROOT / "docs" / "sandbox.md").read_text(encoding="utf-8"))
    missing = sorted(f"{where}.{name}" for where, entries in rows.items()
                     for name, _, _ in entries
                     if f"| `{where}` |" not in doc or f"`{name}`" not in doc)
    assert not missing, f"not in docs/sandbox.md's audit table: {missing[:20]}"
    assert doc == audit.table_markdown(rows), \
        "the audit table is out of date: run python dev/sandbox_audit.py --write"


def test_the_guarded_callables_of_the_known_routes_are_guarded(rows):
    classes = {f"{where}.{name}": verdict for where, entries in rows.items()
               for name, verdict, _ in entries}
    for name in ("functools.wraps", "functools.update_wrapper", "enum.Enum",
                 "dataclasses.dataclass", "builtins.getattr", "builtins.delattr",
                 "builtins.str.format", "torch.Tensor.data_ptr", "copy.deepcopy"):
        assert classes[name] == "guarded", name
    for name in ("operator.attrgetter", "operator.methodcaller", "collections.namedtuple",
                 "string.Formatter", "typing.NamedTuple", "numpy.ndarray"):
        assert classes[name] == "refused", name


def test_a_new_module_or_standard_name_without_a_verdict_stops_the_audit(audit):
    with pytest.raises(audit.Unaudited, match="no rule covers the module"):
        audit.classify("pickle", "loads")
    with pytest.raises(audit.Unaudited, match="has no verdict"):
        audit.classify("functools", "singledispatch")
    assert audit.classify("torch.nn", "Linear")[0] == "pure"
