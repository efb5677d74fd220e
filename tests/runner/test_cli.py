"""`gradstep run` / `gradstep trace`: output, exit codes and the shape of tracebacks."""
import json
import subprocess
import sys


def gradstep(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "gradstep", *args], capture_output=True,
                          text=True, timeout=60, cwd=cwd)


def write(tmp_path, source, name="prog.py"):
    path = tmp_path / name
    path.write_text(source, encoding="utf-8")
    return str(path)


def test_run_prints_stdout_exactly_and_exits_0(tmp_path):
    path = write(tmp_path, "import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)\n"
                           "(x * x).sum().backward()\nprint(x.grad)\nprint('é', end='')\n")
    proc = gradstep("run", path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "tensor([2., 4.])\né"
    assert proc.stderr == ""


def test_uncaught_exception_is_a_python_traceback_with_the_users_lines(tmp_path):
    path = write(tmp_path, "import torch\n\ndef f(t):\n    return t.backward()\n\n"
                           "y = torch.ones(2, requires_grad=True) * 2\nf(y)\n")
    proc = gradstep("run", path)
    assert proc.returncode == 1
    lines = proc.stderr.rstrip("\n").split("\n")
    assert lines[0] == "Traceback (most recent call last):"
    assert f'  File "{path}", line 7, in <module>' in lines
    assert f'  File "{path}", line 4, in f' in lines
    assert lines[-1] == "RuntimeError: grad can be implicitly created only for scalar outputs"
    assert "engine" not in proc.stderr and "runner" not in proc.stderr


def test_a_relative_path_is_named_absolute_as_python_names_it(tmp_path):
    write(tmp_path, "import torch\nx = torch.ones(2, requires_grad=True)\nc = x * 2\n"
                    "print(c.grad)\nc.backward()\n")
    proc = gradstep("run", "prog.py", cwd=tmp_path)
    path = str(tmp_path / "prog.py")
    assert f'  File "{path}", line 5, in <module>' in proc.stderr.splitlines()
    assert f"{path}:4: UserWarning: The .grad attribute" in proc.stderr


def test_output_before_the_exception_is_kept(tmp_path):
    proc = gradstep("run", write(tmp_path, "print('one')\nprint('two')\n1 / 0\n"))
    assert proc.returncode == 1
    assert proc.stdout == "one\ntwo\n"
    assert proc.stderr.splitlines()[-1] == "ZeroDivisionError: division by zero"


def test_warnings_use_pythons_format_on_the_users_line(tmp_path):
    path = write(tmp_path, "import torch\nx = torch.tensor([1.0], requires_grad=True)\n"
                           "y = x * 3\ny.sum().backward()\nprint(y.grad)\n")
    proc = gradstep("run", path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "None\n"
    first, second = proc.stderr.split("\n")[:2]
    assert first.startswith(f"{path}:5: UserWarning: The .grad attribute of a Tensor that is "
                            f"not a leaf Tensor is being accessed.")
    assert second == "  print(y.grad)"


def test_saved_tensors_hooks_module_is_importable_and_runs(tmp_path):
    # torch.autograd.graph passes the policy and the module proxies, in all three spellings;
    # the expected output is what PyTorch 2.13 printed for this program
    path = write(tmp_path, "import torch\nimport torch.autograd.graph as g\n"
                           "from torch.autograd.graph import saved_tensors_hooks\n"
                           "def pack(t):\n    print('pack', t)\n    return t\n"
                           "def unpack(t):\n    print('unpack', t)\n    return t\n"
                           "a = torch.tensor([1.0, 2.0], requires_grad=True)\n"
                           "with saved_tensors_hooks(pack, unpack):\n    y = a.exp()\n"
                           "with torch.autograd.graph.save_on_cpu():\n    z = a * a\n"
                           "(y.sum() + z.sum()).backward()\nprint(a.grad, g.save_on_cpu)\n")
    proc = gradstep("run", path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == (
        "pack tensor([2.7183, 7.3891], grad_fn=<ExpBackward0>)\n"
        "unpack tensor([2.7183, 7.3891], grad_fn=<ExpBackward0>)\n"
        "tensor([ 4.7183, 11.3891]) <class 'torch.autograd.graph.save_on_cpu'>\n")


def test_syntax_error_looks_like_python(tmp_path):
    path = write(tmp_path, "x = (1,\nprint(x)\n")
    proc = gradstep("run", path)
    assert proc.returncode == 1
    assert proc.stderr.startswith(f'  File "{path}", line 1')
    assert proc.stderr.splitlines()[-1] == "SyntaxError: '(' was never closed"


def test_refused_program_names_the_line(tmp_path):
    path = write(tmp_path, "import torch\nimport os\n")
    proc = gradstep("run", path)
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr.splitlines()[-1] == (
        "SecurityError: line 2: import of 'os' is not allowed "
        "(gradstep runs torch, numpy, math, random, collections, copy, itertools, functools, "
        "re and a few more standard modules only)")
    assert "    import os" in proc.stderr


def test_missing_file_and_invalid_utf8(tmp_path):
    assert gradstep("run", str(tmp_path / "nope.py")).returncode == 2
    bad = tmp_path / "bad.py"
    bad.write_bytes(b"print('\xff')\n")
    proc = gradstep("run", str(bad))
    assert proc.returncode == 1
    assert "not valid UTF-8" in proc.stderr


def test_trace_writes_valid_json(tmp_path):
    from gradstep.runner import trace as trace_format
    path = write(tmp_path, "import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)\n"
                           "y = (x * x).sum()\ny.backward()\nprint(x.grad)\n")
    out = tmp_path / "trace.json"
    proc = gradstep("trace", path, "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    trace = json.loads(out.read_text())
    trace_format.validate(trace)
    kinds = [e["kind"] for e in trace["events"]]
    assert "backward_begin" in kinds and "stdout" in kinds and kinds[-1] == "end"
    assert trace["program"]["filename"] == path


def test_trace_of_a_failing_program_records_the_error(tmp_path):
    path = write(tmp_path, "print('hi')\nimport os\n")
    proc = gradstep("trace", path)
    assert proc.returncode == 1
    trace = json.loads(proc.stdout)
    errors = [e for e in trace["events"] if e["kind"] == "error"]
    assert errors and errors[0]["line"] == 2


def test_a_warning_in_a_loop_is_shown_once_traced_or_not(pool):
    source = ("import torch\nw = torch.tensor([1.0], requires_grad=True)\nfor i in range(3):\n"
              "    loss = (w * 2).sum()\n    loss.backward()\n    print(float(loss))\n")
    for trace in (False, True):
        result = pool.run(source, trace=trace)
        assert result.exit_code == 0, result.stderr
        assert result.stderr.count("UserWarning: Converting a tensor with requires_grad=True "
                                   "to a scalar") == 1


def test_a_long_exception_chain_is_reported(pool):
    source = ("e = None\nfor i in range(3000):\n    try:\n        try:\n"
              "            raise ValueError(i)\n"
              "        finally:\n            pass\n    except ValueError as err:\n        e = err\n"
              "try:\n    raise KeyError('k') from e\nexcept KeyError as k:\n    last = k\n"
              "def deep(n):\n    try:\n        raise RuntimeError(n)\n    except RuntimeError:\n"
              "        if n:\n            deep(n - 1)\n        raise\n"
              "deep(100)\n")
    result = pool.run(source, trace=False)
    assert result.exit_code == 1
    assert result.stderr.strip().splitlines()[-1] == "RuntimeError: 0"
    assert "During handling of the above exception" in result.stderr


def test_python_dash_m_runner_runs_and_traces(tmp_path):
    path = write(tmp_path, "print(sum(range(4)))\n")
    proc = subprocess.run([sys.executable, "-m", "gradstep.runner", path], capture_output=True,
                          text=True, timeout=60)
    assert (proc.returncode, proc.stdout) == (0, "6\n")
    out = tmp_path / "t.json"
    proc = subprocess.run([sys.executable, "-m", "gradstep.runner", path, "--out", str(out)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0
    assert json.loads(out.read_text())["events"][-1]["kind"] == "end"
