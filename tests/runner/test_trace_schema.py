"""The trace format itself: the schema file, validate(), dump()/load(), and every fixture."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import jsonschema
import pytest

from gradstep.runner import trace as T

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = sorted((ROOT / "tests" / "fixtures" / "traces").glob("*.json"))
SCHEMA_FILE = ROOT / "runner" / "trace.schema.json"


def _validator():
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def _minimal() -> dict:
    """A small hand-written trace that uses ids across events."""
    t = T.new_trace("import torch\nx = torch.ones(1)\nprint(x)\n", "main.py")
    value = {"shape": [1], "dtype": "torch.float32", "data": [1.0], "repr": "tensor([1.])"}
    t["events"] = [
        {"seq": 0, "kind": "tensor", "line": 2, "how": "ones", "grad_mode": True,
         "tensor": {"id": "t0", "name": "x", "shape": [1], "dtype": "torch.float32",
                    "requires_grad": False, "is_leaf": True, "grad_fn": None, "value": value}},
        {"seq": 1, "kind": "inplace", "line": 2, "tensor": "t0", "op": "mul_", "version": 1,
         "value": value, "grad_fn": None, "node": None, "new_nodes": []},
        {"seq": 2, "kind": "stdout", "line": 3, "text": "tensor([1.])\n"},
        {"seq": 3, "kind": "end", "line": None, "exit_code": 0,
         "counts": {"events": 4, "passes": 0, "ops": 0, "elided_events": 0}},
    ]
    return t


def test_schema_file_is_generated_from_trace_py():
    # trace.py is the one definition; the JSON file must not drift from it
    assert SCHEMA_FILE.read_text(encoding="utf-8") == T.schema_json()


def test_every_kind_is_in_the_schema_and_the_docs():
    docs = (ROOT / "docs" / "trace-format.md").read_text(encoding="utf-8")
    for kind in T.KINDS:
        assert f"event_{kind}" in T.SCHEMA["$defs"]
        assert f"| `{kind}` |" in docs, f"docs/trace-format.md has no row for {kind}"


def test_minimal_trace_passes_both_validators():
    t = _minimal()
    T.validate(t)
    _validator().validate(t)


@pytest.mark.parametrize("breakage, message", [
    (lambda t: t["events"][1].pop("version"), "missing 'version'"),
    (lambda t: t["events"][1].update(tensor="t7"), "refers to t7"),
    (lambda t: t["events"][2].update(seq=5), "seq is 5"),
    (lambda t: t["events"][2].update(kind="print"), "events[2]"),
    (lambda t: t["events"].reverse(), "seq is 3"),
    (lambda t: t["events"].pop(), "last event must be 'end'"),
    (lambda t: t["events"][0]["tensor"].update(shape=[-1]), "< 0"),
    (lambda t: t["events"][2].update(colour="red"), "unexpected field 'colour'"),
    (lambda t: t.update(version=2), "expected 1"),
])
def test_broken_traces_are_rejected_by_both(breakage, message):
    t = _minimal()
    breakage(t)
    with pytest.raises(T.TraceError, match=message.replace("[", r"\[").replace("]", r"\]")):
        T.validate(t)
    if "refers to" not in message and "seq is" not in message and "last event" not in message:
        # semantic rules are beyond JSON Schema; the structural ones must agree
        with pytest.raises(jsonschema.ValidationError):
            _validator().validate(t)


def test_text_that_looks_like_an_id_is_not_a_reference():
    t = _minimal()
    t["events"][2]["text"] = "t9 n3\n"
    T.validate(t)


def test_dump_is_canonical_and_round_trips():
    t = _minimal()
    shuffled = copy.deepcopy(t)
    shuffled["events"] = [dict(reversed(list(e.items()))) for e in shuffled["events"]]
    shuffled = dict(reversed(list(shuffled.items())))
    data = T.dump(t)
    assert T.dump(shuffled) == data
    assert T.load(data) == t
    lines = data.decode("utf-8").splitlines()
    # one event per line, so a fixture diff shows which steps changed
    assert len(lines) == len(t["events"]) + 2
    assert lines[0] == '{"events":['


def test_dump_refuses_nan():
    t = _minimal()
    t["events"][0]["tensor"]["value"]["data"] = [float("nan")]
    with pytest.raises(ValueError):
        T.dump(t)


def test_fixtures_exist():
    names = {p.stem for p in FIXTURES}
    for name in ("s000_while_norm_vjp", "s000_backward_twice_error", "s001_grad_accumulate",
                 "s001_retain_graph_two_losses", "s001_vjp_scalars", "s001_copyslices_m_n",
                 "training_loop_elided", "s000_higher_order_grad", "s001_no_grad_detach",
                 "hooks_retain_grad", "caught_second_backward"):
        assert name in names


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_fixture_is_valid(path):
    data = path.read_bytes()
    t = T.load(data)
    T.validate(t)
    _validator().validate(t)
    assert T.dump(t) == data, "fixture is not in canonical form; regenerate it"
    assert len(data) <= t["limits"]["max_bytes"]
    # the header's program is the fixture's program, so lines index into the right text
    program = path.parent / "programs" / f"{path.stem}.py"
    assert t["program"]["source"] == program.read_text(encoding="utf-8")
    n_lines = t["program"]["source"].count("\n") + 1
    assert all(e["line"] is None or 1 <= e["line"] <= n_lines for e in t["events"])


def test_carried_events_must_come_in_an_order_the_fold_can_apply():
    # the golden loop, over a list: its middle is recorded in full (a range's would be light,
    # and carry only the leaf), so the kept epochs need an op carried with its input
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "trace_regen", ROOT / "tests" / "fixtures" / "traces" / "regen.py")
    regen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(regen)
    source = (ROOT / "tests" / "fixtures" / "traces" / "programs" / "training_loop_elided.py"
              ).read_text(encoding="utf-8").replace("in range(1, n_epochs + 1)",
                                                    "in list(range(1, n_epochs + 1))")
    t, _, _ = regen.record_program(source, "main.py")
    (el,) = [e for e in t["events"] if e["kind"] == "elided"]
    assert len(el["carried"]) >= 2
    T.validate(t)
    el["carried"].reverse()  # the op now comes before the tensor it uses
    with pytest.raises(T.TraceError, match=r"carried\[0\].*before it is defined"):
        T.validate(t)


def test_the_docstring_examples_run():
    import doctest

    from gradstep.runner import recorder, trace_build, trace_values
    for module in (T, recorder, trace_build, trace_values):
        result = doctest.testmod(module)
        assert result.failed == 0, module.__name__
    assert doctest.testmod(T).attempted and doctest.testmod(recorder).attempted
    assert doctest.testmod(trace_values).attempted
