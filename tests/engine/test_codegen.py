"""The generated fast `apply` of every op records exactly what the generic `Op._record` does.

`engine/ops/_codegen.py` compiles each op declaration into straight-line code; `Op._record`
(with `_make_node` and the compiled saver) is the declaration read at run time, which
hand-written applies still use. Both are run on every registered op's sample inputs, with
some inputs requiring grad and some not, and must agree on the output, the node class, the
next_functions edges, the saved values and their versions, and what a listener hears.
"""
import importlib

import numpy as np
import pytest

import gradstep.engine as torch
from gradstep.engine import _events
from gradstep.engine.ops._op import REGISTRY, Op

importlib.import_module("gradstep.engine.ops.nn_ops")   # nn's ops register themselves on import
importlib.import_module("gradstep.engine.ops.losses")
importlib.import_module("gradstep.engine.nn")   # the ops of every nn family file

GENERATED = sorted((name, cls) for name, cls in REGISTRY.items()
                   if getattr(cls.__dict__.get("apply"), "__func__", None) is not None
                   and getattr(cls.apply, "_generated", False))


def _generic(cls, *args):
    """Op.apply: the declaration read at run time, which the generated code replaces."""
    return Op.__dict__["apply"].__func__(cls, *args)


class _Heard(_events.Listener):
    def __init__(self):
        self.ops = []

    def on_op(self, op_name, inputs, output, node):
        self.ops.append((op_name, len(inputs), node is not None))


def _edges(node):
    return [(type(fn).__name__ if fn is not None else None, nr) for fn, nr in node.next_functions]


def _saved(node):
    out = []
    for v in node._saved:
        out.append(("tensor", v._data.tolist()) if isinstance(v, torch.Tensor) else v)
    return out


def _detached_copy(args, grad_mask):
    """Fresh leaves for each run, so AccumulateGrad nodes are new but comparable by name."""
    out, k = [], 0
    for a in args:
        if isinstance(a, torch.Tensor):
            t = torch.tensor(a._data.copy())
            if grad_mask[k % len(grad_mask)] and t.dtype.is_floating_point:
                t.requires_grad_()
            k += 1
            out.append(t)
        else:
            out.append(a)
    return out


@pytest.mark.parametrize("name,cls", GENERATED, ids=[n for n, _ in GENERATED])
@pytest.mark.parametrize("grad_mask", [(True,), (False, True), (False,)],
                         ids=["all-grad", "second-grad", "no-grad"])
def test_generated_apply_records_what_record_does(name, cls, grad_mask):
    rng = np.random.default_rng(0)

    def make(shape, low=-2.0, high=2.0):
        return torch.tensor(rng.uniform(low, high, shape), dtype=torch.float64,
                            requires_grad=True)
    args = next(iter(cls.sample_inputs(make, (2, 3))))
    results = []
    for apply in (cls.apply, lambda *a: _generic(cls, *a)):
        heard = _Heard()
        old = _events.set_listener(heard)
        try:
            out = apply(*_detached_copy(args, grad_mask))
        finally:
            _events.set_listener(old)
        node = out.grad_fn
        results.append((out._data.tolist(), out.dtype, out.requires_grad,
                        type(node).__name__ if node is not None else None,
                        _edges(node) if node is not None else None,
                        _saved(node) if node is not None else None,
                        node._versions if node is not None else None, heard.ops))
    assert results[0] == results[1]


def test_every_plain_op_is_generated():
    """An op without a hand-written apply gets the generated one (else it silently runs slow)."""
    plain = [name for name, cls in REGISTRY.items()
             if not any("apply" in k.__dict__ for k in cls.__mro__ if k is not Op
                        and not getattr(getattr(k.__dict__.get("apply"), "__func__", None),
                                        "_generated", False))]
    missing = [n for n in plain if not getattr(REGISTRY[n].apply, "_generated", False)]
    assert plain and not missing


def test_generated_source_is_readable():
    from gradstep.engine.ops.arithmetic import Mul
    assert Mul.apply_source.startswith("def apply(i0, i1):")
    assert "MulBackward0" in Mul.apply.__doc__


OPERATORS = [("__add__", "Add", (1,)), ("__radd__", "Add", (1,)), ("__sub__", "Sub", (1,)),
             ("__mul__", "Mul", ()), ("__rmul__", "Mul", ()),
             ("__truediv__", "Div", ()), ("__neg__", "Neg", ()), ("exp", "Exp", ()),
             ("sin", "Sin", ()), ("cos", "Cos", ()), ("tanh", "Tanh", ())]


@pytest.mark.parametrize("method,op,fixed", OPERATORS, ids=[m for m, _, _ in OPERATORS])
def test_operator_is_its_ops_apply(method, op, fixed):
    """Tensor methods bound to an op's generated apply (compile_operator) record what the op's
    apply records, and hand a number operand to the public function."""
    cls = next(c for c in REGISTRY.values() if c.__name__ == op)
    x = torch.tensor([0.5, -1.25, 2.0], requires_grad=True)
    c = torch.tensor([1.5, 0.25, -3.0])
    operands = (c,) if cls.n_inputs == 2 else ()
    results = []
    for run in (lambda: getattr(x, method)(*operands), lambda: cls.apply(x, *operands, *fixed)):
        heard = _Heard()
        old = _events.set_listener(heard)
        try:
            out = run()
        finally:
            _events.set_listener(old)
        node = out.grad_fn
        results.append((out._data.tolist(), type(node).__name__, _edges(node), _saved(node),
                        node._versions, heard.ops))
    assert results[0] == results[1]
    if cls.n_inputs == 2:   # a number is wrapped by the public function, as before
        assert getattr(x, method)(2.0).tolist() == getattr(x, method)(torch.tensor(2.0)).tolist()


def test_operator_sub_refuses_bools_first():
    b = torch.tensor([True, False])
    with pytest.raises(RuntimeError, match="with a bool tensor is not supported"):
        b - torch.tensor([1.0, 2.0])
    with pytest.raises(RuntimeError, match="with two bool tensors is not supported"):
        b - b
