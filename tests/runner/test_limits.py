"""Every limit: its default, its env override, and what a program that exceeds it gets back.

Each breach must end with exit code 1, `error.kind == "limit"`, the limit's key, a message
naming it (and the line where the program was), and the output printed before it kept.
"""
import pytest

from gradstep.runner import Limits
from gradstep.runner.limits import LIMIT_KEYS


def test_defaults_are_documented_and_positive():
    limits = Limits()
    for field, _key in LIMIT_KEYS.items():
        assert getattr(limits, field) > 0, field
    assert limits.cpu_seconds == 5 and limits.memory_mb == 512
    # the wall clock is a backstop for a busy machine, several times the CPU limit
    assert limits.wall_seconds >= 3 * limits.cpu_seconds


def test_env_overrides_every_field():
    env = {f"GRADSTEP_LIMIT_{field.upper()}": "7" for field in LIMIT_KEYS}
    limits = Limits.from_env(env)
    assert all(getattr(limits, field) == 7 for field in LIMIT_KEYS)


def test_bad_env_values_are_refused_with_the_variable_name():
    with pytest.raises(ValueError, match="GRADSTEP_LIMIT_CPU_SECONDS"):
        Limits.from_env({"GRADSTEP_LIMIT_CPU_SECONDS": "lots"})
    with pytest.raises(ValueError, match="positive"):
        Limits(memory_mb=0)


def run(pool, source, **limits):
    base = pool.limits
    return pool.run(source, limits=base.replace(**limits) if limits else base, trace=False)


def assert_limit(result, key, line=None):
    assert result.exit_code == 1
    assert result.error["kind"] == "limit", result.error
    assert result.error["limit"] == key
    assert result.stderr.strip().splitlines()[-1].startswith(result.error["type"] + ":")
    if line is not None:
        assert result.error["line"] == line
        assert result.error["message"].startswith(f"line {line}:")


def test_cpu_time(pool):
    result = run(pool, "print('before')\nwhile True:\n    pass\n")
    assert_limit(result, "cpu_time", line=2)
    assert "CPU time limit exceeded (1 s)" in result.error["message"]
    used = float(result.error["message"].split("the program used ")[1].split(" s")[0])
    assert used >= 1.0                      # says by how much
    assert result.stdout == "before\n"


def test_cpu_time_inside_a_c_loop_is_killed(pool):
    result = run(pool, "print(sum(range(10 ** 12)))\n")
    assert_limit(result, "cpu_time")


def test_wall_time(pool):
    # a wall limit below the CPU limit: the busy loop meets the wall first
    result = run(pool, "print('start')\nwhile True:\n    pass\n", wall_seconds=0.5,
                 cpu_seconds=5)
    assert_limit(result, "wall_time", line=2)
    assert "wall time limit exceeded (0.5 s)" in result.error["message"]
    assert result.stdout == "start\n"


def test_a_run_stopped_by_the_wall_clock_says_how_little_cpu_it_used(pool):
    result = run(pool, "import time\nprint('start')\ntime.sleep(5)\n", wall_seconds=0.5,
                 cpu_seconds=5)
    assert_limit(result, "wall_time", line=3)
    message = result.error["message"]
    assert "wall time limit exceeded (0.5 s): the program ran for 0.5 s but used only" in message
    cpu = float(message.split("used only ")[1].split(" s")[0])
    assert cpu < 0.5 and "its limit is 5 s" in message


def test_wall_time_enforced_by_the_parent_when_the_child_ignores_it(pool):
    # the child's own timer raises inside the loop; the finally block spins again, so only
    # the parent's SIGKILL of the process group ends it
    source = "try:\n    while True:\n        pass\nfinally:\n    while True:\n        pass\n"
    result = run(pool, source, wall_seconds=0.5, cpu_seconds=5)
    assert_limit(result, "wall_time")


def test_memory(pool):
    result = run(pool, "print('ok')\nx = [0] * (10 ** 10)\n")
    assert_limit(result, "memory", line=2)
    assert "memory limit exceeded (256 MB)" in result.error["message"]
    assert result.stdout == "ok\n"


def test_tensor_elements_before_allocation(pool):
    result = run(pool, "import torch\nx = torch.zeros(3000, 3000)\n")
    assert_limit(result, "tensor_elements", line=2)
    assert "9000000 elements" in result.error["message"]


def test_tensor_elements_of_a_computed_tensor(pool):
    result = run(pool, "import torch\na = torch.ones(2000, 1)\nb = a * torch.ones(1, 2000)\n")
    assert_limit(result, "tensor_elements", line=3)


def test_numpy_array_elements(pool):
    result = run(pool, "import numpy as np\nx = np.ones((2000, 2000))\n")
    assert_limit(result, "tensor_elements", line=2)


def test_graph_nodes(pool):
    source = ("import torch\nx = torch.ones(1, requires_grad=True)\n"
              "for i in range(10000):\n    x = x * 1.0\n")
    result = run(pool, source, max_graph_nodes=100)
    assert_limit(result, "graph_nodes", line=4)
    assert "more than 100 grad_fn nodes" in result.error["message"]


def test_stdout_keeps_the_output_up_to_the_cap(pool):
    result = run(pool, "for i in range(100000):\n    print('x' * 9)\n", stdout_bytes=1000)
    assert_limit(result, "stdout", line=2)
    assert result.stdout == ("x" * 9 + "\n") * 100
    assert "more than 1000 bytes" in result.error["message"]


def test_source_size(pool):
    result = run(pool, "x = 1\n" * 200, source_bytes=1000)
    assert_limit(result, "source")
    assert "1200 bytes; the source limit is 1000 bytes" in result.error["message"]


def test_recursion_depth(pool):
    source = "def f(n):\n    return f(n + 1)\nf(0)\n"
    result = run(pool, source, recursion_depth=50)
    assert_limit(result, "recursion_depth", line=2)
    assert result.error["type"] == "RecursionError"
    assert "recursion depth limit 50" in result.error["message"]


def test_honest_recursion_under_the_limit_runs(pool):
    source = "def f(n):\n    return 0 if n == 0 else 1 + f(n - 1)\nprint(f(150))\n"
    result = run(pool, source)
    assert (result.stdout, result.error) == ("150\n", None)


def test_a_limit_cannot_be_caught(pool):
    source = ("try:\n    while True:\n        pass\nexcept Exception:\n    print('caught')\n"
              "except:\n    print('caught')\n")
    result = run(pool, source)
    assert_limit(result, "cpu_time")
    assert "caught" not in result.stdout


def test_a_limit_is_recorded_in_the_trace(pool):
    from gradstep.runner import trace as trace_format
    result = pool.run("print('a')\nwhile True:\n    pass\n", trace=True)
    trace_format.validate(result.trace)
    errors = [e for e in result.trace["events"] if e["kind"] == "error"]
    assert errors[-1]["error_kind"] == "limit" and errors[-1]["line"] == 2
    assert [e["text"] for e in result.trace["events"] if e["kind"] == "stdout"] == ["a\n"]


def test_a_run_killed_from_outside_still_has_a_trace_with_its_error(pool):
    from gradstep.runner import trace as trace_format
    result = pool.run("print('a')\nprint(sum(range(10 ** 12)))\n", trace=True)
    assert result.error["limit"] == "cpu_time"
    trace_format.validate(result.trace)
    errors = [e for e in result.trace["events"] if e["kind"] == "error"]
    assert errors[-1]["error_kind"] == "limit"


@pytest.mark.parametrize("call", [
    "torch.eye(5000)", "torch.linspace(0, 1, 10 ** 8)", "torch.randperm(10 ** 8)",
    "torch.randint(0, 5, (3000, 3000))", "torch.full((3000, 3000), 1.0)",
    "torch.arange(0, 10 ** 8, 1)", "np.random.normal(0, 1, size=(3000, 3000))",
    "np.random.choice([1, 2], 10 ** 8)", "np.eye(5000)", "np.tile(np.ones(10), 10 ** 6)",
])
def test_sized_factories_are_checked_before_allocating(pool, call):
    result = run(pool, f"import torch\nimport numpy as np\nx = {call}\n")
    assert_limit(result, "tensor_elements", line=3)


def test_an_oversized_program_still_gets_a_trace_with_the_error(pool):
    from gradstep.runner import trace as trace_format
    limits = pool.limits.replace(source_bytes=1000)
    result = pool.run("x = 1\n" * 200, limits=limits, trace=True)
    assert result.error["limit"] == "source"
    trace_format.validate(result.trace)
    assert [e["error_kind"] for e in result.trace["events"] if e["kind"] == "error"] == ["limit"]
    huge = pool.run("x = 1\n" * 2000, limits=limits, trace=True)     # refused before the pool
    assert huge.error["limit"] == "source" and huge.trace is None
