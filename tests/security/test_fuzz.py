"""Generated programs (Hypothesis) and random bytes through the runner and through the API:
never a crash or a hang, always a result, and every failure a clear `Type: message`."""
from __future__ import annotations

import collections as _collections
import json
import signal
import types
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import LONG, scale
from programs import PIECES
from gradstep.runner import Limits, WorkerPool, guards
from gradstep.runner.errors import LimitExceeded, SecurityError, end_run, start_run
from gradstep.runner.policy import compile_program
from gradstep.runner.proxies import ModuleProxy

LIMITS = Limits(cpu_seconds=2, wall_seconds=4, memory_mb=256)
FUZZ = settings(max_examples=scale(25, 300), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def pool():
    p = WorkerPool(size=2, limits=LIMITS)
    yield p
    p.close()


def assert_clear(result) -> None:
    """The contract for any program: an exit code of 0 or 1, and when 1, a named error."""
    assert result.exit_code in (0, 1), result
    if result.exit_code:
        assert result.error and result.error["type"] and result.error["message"], result
        assert result.error["kind"] != "crash", result
        last = [line for line in result.stderr.splitlines() if line.strip()][-1]
        assert last.startswith(result.error["type"]), (last, result.error)


programs = st.lists(st.sampled_from(PIECES), min_size=1, max_size=8).map(
    lambda parts: "import torch\n" + "\n".join(parts) + "\n")


@FUZZ
@given(source=programs)
def test_generated_programs_always_end_clearly(pool, source):
    assert_clear(pool.run(source))


@FUZZ
@given(blob=st.binary(max_size=400))
def test_random_bytes_are_refused_or_run_never_crash(pool, blob):
    assert_clear(pool.run(blob.decode("utf-8", "replace")))


@FUZZ
@given(text=st.text(max_size=300))
def test_random_text_is_refused_or_run_never_crash(pool, text):
    assert_clear(pool.run(text))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=12)


@pytest.fixture(scope="module")
def api():
    from fastapi.testclient import TestClient
    from gradstep.app.main import create_app
    from app_testing import make_settings
    with TestClient(create_app(make_settings(pool_size=2, rate_limit=0))) as client:
        yield client


def assert_api_answer(response) -> None:
    assert response.status_code < 500 or response.status_code == 503, response.text
    body = response.json()
    if response.status_code != 200:
        assert body["error"]["message"], body
    else:
        assert "result" in body and "trace" in body


@FUZZ
@given(body=json_values)
def test_api_survives_any_json_body(api, body):
    assert_api_answer(api.post("/api/run", content=json.dumps(body),
                               headers={"Content-Type": "application/json"}))


@FUZZ
@given(blob=st.binary(max_size=600))
def test_api_survives_any_bytes(api, blob):
    assert_api_answer(api.post("/api/run", content=blob,
                               headers={"Content-Type": "application/json"}))


@FUZZ
@given(source=programs)
def test_api_runs_generated_programs(api, source):
    response = api.post("/api/run", json={"code": source})
    assert response.status_code == 200, response.text
    result = response.json()["result"]
    assert result["exit_code"] in (0, 1)


# ---- the language layer alone: reachable callables composed with names and classes --------
#
# Programs of a small grammar call what a program can reach (functools.wraps, the enum
# functional API, dataclasses, getattr/setattr/delattr, copy, format fields, numpy's array
# readers ...) with dunder and private names as data, engine classes, ClassViews, standard
# and engine functions and each other's results. They run in this process behind the policy
# and guards only (no OS layer: the language layer must hold alone), then an oracle walks
# everything the program's namespace holds and fails on a real module, builtins dictionary,
# forbidden builtin, frame, code object, a class the program may not hold, or an array whose
# memory is not an array's (raw memory), and on any change to the engine's classes, the
# ClassViews or the module proxies.

NAMES = ["__globals__", "__class__", "__dict__", "__builtins__", "__array_interface__",
         "__exit__", "__enter__", "__reduce_ex__", "__module__", "_sbx_cls", "__subclasses__",
         "__code__", "__closure__", "__self__", "__wrapped__", "__init__", "__getattribute__",
         "__bases__", "__mro__", "tofile", "data", "f_back", "gi_frame", "backward", "weight",
         "A", "x"]
OBJECTS = ["torch.Tensor", "nn.Linear", "nn.Module", "torch.autograd.Function",
           "type(np.zeros(1))", "type(np.float64(1.0))", "type(print)", "type(iter([]))",
           "statistics.mean", "F.relu", "np.linspace", "print", "len", "f", "U", "u", "t",
           "np.zeros(2)", "1", "'s'", "[1, 2]", "{}", "torch", "np", "E", "E.A", "pd", "lin"]
CALLS = [
    "functools.wraps({o}, assigned=({n},), updated=())({o})",
    "functools.wraps({o}, assigned=(), updated=({n},))({o})",
    "functools.update_wrapper({o}, {o})",
    "functools.wraps({o})({o})",
    "enum.Enum('X', {{n}: {o}})",
    "enum.Enum('X', [({n}, {o})])",
    "enum.Enum('X', 'A B', type={o})",
    "enum.Enum('X', 'A', module={n})",
    "enum.Enum('X', 'A', qualname={n})",
    "dataclasses.dataclass({o})",
    "dataclasses.replace({o})",
    "functools.total_ordering({o})",
    "abc.abstractmethod({o})",
    "getattr({o}, {n})",
    "setattr({o}, {n}, {o})",
    "delattr({o}, {n})",
    "hasattr({o}, {n})",
    "type({o})",
    "{o}.__class__",
    "copy.copy({o})",
    "copy.deepcopy({o})",
    "operator.itemgetter({n})({o})",
    "functools.reduce(getattr, [{n}], {o})",
    "functools.partial({o}, {o})()",
    "('{0.' + {n} + '}').format({o})",
    "('{0[' + {n} + ']}').format({o})",
    "inspect.signature({o}).parameters",
    "np.asarray({o})",
    "pd[{n}]",
    "torch.load('f.pt', weights_only=False) if torch.save({o}, 'f.pt') is None else 0",
    "{o}({o})",
    "{o}[{n}]",
    "super({o}, {o})",
    "isinstance({o}, {o})",
    "warnings.catch_warnings(module={o})",
    "typing.cast({o}, {o})",
    "{o}.{a}",
    "list(map(getattr, [{o}], [{n}]))",
    "functools.partial(setattr, {o}, {n})({o})",
    "enum.Enum('X', {n})",
    "dataclasses.fields({o})",
    "np.array([{o}], dtype=object)[0]",
    "torch.func.functional_call(lin, {{n}: t}, (torch.ones(2),))",
    "pd.update({{n}: nn.Parameter(torch.ones(1))})",
    "lin.register_buffer({n}, t)",
    "lin.add_module({n}, nn.Linear(1, 1))",
    "np.asarray(lin)",
    "super({o}, {o}).{a}",
]
PRELUDE = f"""\
import abc, copy, dataclasses, enum, functools, inspect, operator, statistics, typing, warnings
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
N = {NAMES!r}


def f(x=1):
    return x


class U:
    pass


u = U()
t = torch.ones(2, requires_grad=True)
pd = nn.ParameterDict()
lin = nn.Linear(2, 2)
E = enum.Enum('E', 'A B')
"""


@st.composite
def language_programs(draw):
    lines = [PRELUDE]
    results: list[str] = []
    for i in range(draw(st.integers(1, 6))):
        def obj():
            pool = OBJECTS + results
            return draw(st.sampled_from(pool))
        template = draw(st.sampled_from(CALLS))
        expr = template
        while "{o}" in expr or "{n}" in expr or "{a}" in expr:
            expr = (expr.replace("{o}", obj(), 1)
                    .replace("{n}", f"N[{draw(st.integers(0, len(NAMES) - 1))}]", 1)
                    .replace("{a}", draw(st.sampled_from(["real", "shape", "weight", "A",
                                                          "backward", "parameters"])), 1))
        lines.append(f"try:\n    r{i} = {expr}\nexcept Exception as e:\n    r{i} = e\n")
        results.append(f"r{i}")
    return "\n".join(lines)


class _Timeout(BaseException):
    pass


def _on_alarm(signum, frame):
    raise _Timeout()


def _snapshot_classes():
    from gradstep import engine
    watched = (engine.Tensor, engine.nn.Module, engine.nn.Linear, engine.autograd.Function,
               engine.nn.ParameterDict)
    return {cls: _class_dict(cls) for cls in watched}


def _class_dict(cls) -> dict:
    # copyreg caches __slotnames__ on a class the first time one of its objects is copied
    return {k: v for k, v in vars(cls).items() if k != "__slotnames__"}


def _allowed_classes(table) -> set:
    """Classes a program may hold as themselves: what the proxies list (numpy's scalar
    types, Enum, ABC ...), besides guards._public_class."""
    return {v for p in table.proxies.values() for v in p._sbx_names.values()
            if isinstance(v, type)}


def _reachable(namespace):
    """Everything the program's namespace holds, through containers, objects, functions."""
    seen, stack, out = set(), list(namespace.values()), []
    while stack and len(out) < 20000:
        value = stack.pop()
        if id(value) in seen or isinstance(value, (str, bytes, int, float, bool)):
            continue
        seen.add(id(value))
        out.append(value)
        if isinstance(value, ModuleProxy) or isinstance(value, guards.ClassView):
            continue
        if isinstance(value, dict):
            stack.extend(value.keys())
            stack.extend(value.values())
        elif isinstance(value, (list, tuple, set, frozenset, _collections.deque)):
            stack.extend(value)
        if isinstance(value, types.FunctionType):
            stack.extend([value.__defaults__ or (), value.__kwdefaults__ or {}])
            stack.extend(_public_values(value))
            stack.extend(c.cell_contents for c in value.__closure__ or ()
                         if c.cell_contents is not c)
        elif isinstance(value, types.MethodType):
            stack.extend([value.__self__, value.__func__])
        elif isinstance(value, BaseException):
            stack.extend(value.args)
        elif guards._is_user_type(type(value)) or (isinstance(value, type)
                                                   and guards._is_user_type(value)):
            stack.extend(_public_values(value))
    return out


def _public_values(obj) -> list:
    """What a program reads of its own object: public names (the rest is refused)."""
    held = getattr(obj, "__dict__", {})
    return [v for k, v in held.items() if isinstance(k, str) and not k.startswith("_")]


def _breach(value, allowed, safe_builtins) -> str | None:
    if isinstance(value, types.ModuleType):
        return f"a real module {value.__name__}"
    if isinstance(value, (types.FrameType, types.CodeType, types.TracebackType)):
        return f"a {type(value).__name__}"
    if isinstance(value, dict) and value is not safe_builtins and "__import__" in value \
            and value.get("open") is open:
        return "the real builtins"
    if isinstance(value, guards._FUNCTION_TYPES) and guards._forbidden_function(value):
        return f"a forbidden builtin {value!r}"
    if isinstance(value, type) and not guards._public_class(value) and value not in allowed:
        return f"a real class object {value!r}"
    if isinstance(value, np.ndarray):
        root = value
        while isinstance(root.base, np.ndarray):
            root = root.base
        if root.base is not None and not isinstance(root.base, (bytes, np.ndarray)):
            return f"raw memory through {type(root.base).__name__}"
    return None


@pytest.fixture(scope="module")
def language_layer():
    sandbox = guards.Sandbox(print_fn=lambda text: None)
    table = guards.Sandbox._table
    return sandbox, table, _allowed_classes(table)


@settings(max_examples=scale(400, 3000), deadline=None, derandomize=not LONG,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(source=language_programs())
def test_language_layer_alone_never_hands_out_internals(language_layer, source):
    _, table, allowed = language_layer
    namespace = guards.Sandbox(print_fn=lambda text: None).globals()
    safe_builtins = namespace["__builtins__"]
    builtins_before = dict(safe_builtins)
    classes_before = _snapshot_classes()
    proxies_before = {name: dict(p._sbx_names) for name, p in table.proxies.items()}
    views_before = {cls: view._sbx_cls for cls, view in guards._VIEWS.items()}
    start_run()
    old = signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, 5)
    try:
        with warnings.catch_warnings():     # "'int' object is not callable" at compile time
            warnings.simplefilter("ignore", SyntaxWarning)
            code = compile_program(source, "main.py")
        exec(code, namespace)
    except (Exception, SecurityError, LimitExceeded, _Timeout):
        pass
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        end_run()
    assert namespace["__builtins__"] is safe_builtins, "the program's builtins were replaced"
    assert dict(safe_builtins) == builtins_before, "the program's builtins were changed"
    for value in _reachable(namespace):
        why = _breach(value, allowed, safe_builtins)
        assert why is None, f"{why}\n{source}"
    for cls, before in classes_before.items():
        assert _class_dict(cls) == before, f"{cls.__name__} was changed\n{source}"
    for name, p in table.proxies.items():
        assert p._sbx_names == proxies_before[name], f"proxy {name} changed\n{source}"
    for cls, view in guards._VIEWS.items():
        assert view._sbx_cls is views_before.get(cls, cls), f"a ClassView changed\n{source}"
