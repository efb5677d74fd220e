"""The compile-time policy: what the validator refuses (with the line) and what it rewrites."""
import ast

import pytest

from gradstep.runner.errors import LimitExceeded, ProgramTooLarge, SecurityError
from gradstep.runner.policy import compile_program, validate


def refused(source):
    with pytest.raises(SecurityError) as info:
        validate(ast.parse(source))
    return str(info.value)


def test_import_refusal_names_the_line_and_what_is_allowed():
    message = refused("x = 1\n\nimport os\n")
    assert message == ("line 3: import of 'os' is not allowed "
                       "(gradstep runs torch, numpy, math, random, collections, copy, "
                       "itertools, functools, re and a few more standard modules only)")


@pytest.mark.parametrize("source,dotted", [
    ("import torch.signal", "torch.signal"), ("from torch.fft import fft", "torch.fft"),
    ("import torch.autograd.profiler as profiler", "torch.autograd.profiler"),
    ("from torch.distributions.gamma import Gamma", "torch.distributions.gamma"),
])
def test_a_torch_module_gradstep_lacks_is_named_missing_not_forbidden(source, dotted):
    message = refused(source)
    assert message == (f"line 1: import of {dotted!r}: PyTorch has it, gradstep does not "
                       "implement it (it has torch, torch.nn, torch.nn.functional, torch.optim, "
                       "torch.autograd, torch.linalg, torch.utils.data, torch.func, "
                       "torch.distributions)")


def test_a_torch_module_pytorch_lacks_is_not_allowed():
    assert "is not allowed" in refused("import torch.notamodule")


@pytest.mark.parametrize("source", [
    "import torch", "import torch.nn as nn", "import torch.nn.functional as F",
    "import torch.optim as optim", "from torch.autograd import Variable, grad",
    "from torch.autograd import functional", "import numpy as np", "import math, random",
    "from inspect import signature", "import engine as torch", "from torch import nn",
    "from torch.func import grad, vmap", "import torch.func",
    "import torch.autograd.forward_ad as fwAD", "from torch.autograd import forward_ad",
    "from torch.autograd.forward_ad import dual_level, make_dual, unpack_dual",
])
def test_allowed_imports(source):
    validate(ast.parse(source))


@pytest.mark.parametrize("source,fragment", [
    ("import os.path", "'os.path'"), ("from os import path", "'os'"),
    ("import numpy.f2py", "'numpy.f2py'"), ("from . import x", "relative"),
    ("from torch import *", "import *"), ("from torch import _events", "private"),
    ("import torch.utils.cpp_extension", "'torch.utils.cpp_extension'"),
    ("from __future__ import annotations", "__future__"),
])
def test_refused_imports(source, fragment):
    assert fragment in refused(source)


@pytest.mark.parametrize("source,fragment", [
    ("x = ().__class__.__base__", "'__base__'"),
    ("x = ().__ｂａｓｅ__", "'__base__'"),                # NFKC: the parser normalises
    ("__builtins__", "'__builtins__'"),
    ("def f(_sbx_ga, /): pass", "reserved"),
    ("def f(*, __x): pass", "'__x'"),
    ("lambda **__kw: 0", "'__kw'"),
    ("f(__x=1)", "'__x'"),
    ("try:\n    pass\nexcept Exception as __e:\n    pass", "'__e'"),
    ("def __call__(): pass", "'__call__'"),         # dunder defs only as methods
    ("class A:\n    def __del__(self): pass", "'__del__'"),
    ("class A(metaclass=type): pass", "metaclass"),
    ("class A:\n    import os", "class body"),
    ("g = (x for x in [1])\ng.gi_frame", "'gi_frame'"),
    ("e.tb_frame", "'tb_frame'"), ("'{}'.format_map({})", "'format_map'"),
    ("int.mro()", "'mro'"), ("x._data", "'_data'"), ("x.__dict__", "'__dict__'"),
    ("getattr(x, '__dict__')", "'__dict__'"), ("setattr(x, '__name__', 1)", "assignment"),
    ("eval('1')", "'eval'"), ("exec('1')", "'exec'"),
    ("open('f')", "'open'"), ("globals()", "'globals'"), ("breakpoint()", "'breakpoint'"),
    ("del x.__dict__", "'__dict__'"), ("def g():\n    yield 1", "yield"),
    ("async def g(): pass", "async"), ("match x:\n    case 1: pass", "match"),
    ("try:\n    pass\nexcept* ValueError:\n    pass", "except*"),
    ("x.__name__ = 'y'", "assignment"),
])
def test_refused_constructs(source, fragment):
    message = refused(source)
    assert fragment in message
    assert message.startswith("line ")


def test_refusal_reports_the_offending_line():
    assert refused("a = 1\nb = 2\nc = a.__dict__\n").startswith("line 3:")


@pytest.mark.parametrize("source", [
    "for _ in range(3): pass",
    "_x, _ = 1, 2",
    "if __name__ == '__main__': pass",
    "input = 3\nprint(input)",                     # a banned builtin rebound by the program
    "type(x).__name__",
    "model.__class__.__name__",
    "super().__init__()",
    "y.grad_fn._saved_self",
    "x._version",
    "getattr(x, 'grad', None)",
    "hasattr(fn, 'variable')",
    "w.data -= 0.1 * w.grad",
    "xs[0] += 9",
    "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
    "    def forward(self, x):\n        return x\n    def __repr__(self):\n        return 'N'",
    "class F(Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x",
    "@torch.no_grad()\ndef f(): pass",
    "f'{x:.3f} {y!r:>{w}}'",
    "α = 0.1",
    "[y := 1 for i in range(2)]",
    "lambda *a, **k: 0",
])
def test_honest_constructs_pass(source):
    validate(ast.parse(source))


def test_rewrite_guards_attribute_reads_writes_and_augmented_assignment():
    code = compile_program("a.b = c.d\na.e += 1\nimport torch\n", "main.py")
    names = set(code.co_names)
    assert {"_sbx_ga", "_sbx_w", "_sbx_aug", "_sbx_import"} <= names
    assert "b" not in names and "d" not in names     # no raw LOAD_ATTR / STORE_ATTR left


def test_bare_except_becomes_except_exception():
    code = compile_program("try:\n    pass\nexcept:\n    pass\n", "main.py")
    assert "Exception" in code.co_names


def test_compiled_code_keeps_the_users_filename_and_lines():
    code = compile_program("x = 1\ny = x.real\n", "lesson.py")
    assert code.co_filename == "lesson.py"
    assert {line for _, _, line in code.co_lines() if line} == {1, 2}


def test_source_limit_is_checked_before_parsing():
    with pytest.raises(LimitExceeded) as info:
        compile_program("x = (" * 10_000, "main.py", max_bytes=1000)
    assert info.value.limit == "source"
    assert "source limit is 1000 bytes" in str(info.value)


def test_nul_bytes_are_refused():
    with pytest.raises(SecurityError, match="NUL"):
        compile_program("x = 1\x00", "main.py")


def test_too_deeply_nested_program_is_a_clear_refusal():
    with pytest.raises((ProgramTooLarge, SyntaxError)):
        compile_program("x = " + "-" * 30_000 + "1\n", "main.py", max_bytes=10**6)


def test_security_errors_cannot_be_caught_by_except_exception():
    assert not issubclass(SecurityError, Exception)
    assert not issubclass(LimitExceeded, Exception)


@pytest.mark.parametrize("source", ["getattr(x, name)", "hasattr(x, 'a' + 'b')",
                                    "setattr(x, names[0], 1)", "getattr(x, name, None)"])
def test_computed_attribute_names_compile(source):
    """A computed name is checked when the call runs (runner.guards), by the same rule."""
    compile_program(source + "\n", "main.py")
