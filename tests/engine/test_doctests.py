"""The engine core's docstring examples run and print what they claim.

Some classes present PyTorch's module names (`type(x)` prints `<class 'torch.Tensor'>`), which
hides them from `doctest.testmod`; the finder here looks at everything a file defines.
"""
import doctest
import importlib
import inspect

import pytest

MODULES = ["gradstep.engine" + name for name in ["", "._events", "._names", ".tensor", ".graph",
                                                 ".grad_mode", ".generator", ".dtypes",
                                                 ".factories", ".ops._broadcast", ".ops.linalg",
                                                 ".autograd.walk", ".autograd.function",
                                                 ".autograd.variable", ".func", ".func.reverse",
                                                 ".func.forward", ".func.batching",
                                                 ".func.stateless", ".ops.index_writes",
                                                 ".autograd.multi_grad_hook",
                                                 ".nn.functional_gumbel"]]


def _defined_in(obj, path: str) -> bool:
    if inspect.isfunction(obj):
        return obj.__code__.co_filename == path
    if inspect.isclass(obj):
        funcs = [getattr(f, "__func__", f) for f in vars(obj).values()]  # unwrap static/class
        return any(inspect.isfunction(f) and f.__code__.co_filename == path for f in funcs)
    return False


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    finder, runner = doctest.DocTestFinder(), doctest.DocTestRunner(verbose=False)
    tests = finder.find(module)
    for obj in [v for v in vars(module).values() if _defined_in(v, module.__file__)]:
        tests += finder.find(obj, f"{name}.{obj.__name__}", module=False,
                             globs=dict(vars(module)))
    for t in {id(t): t for t in tests}.values():
        runner.run(t)
    result = runner.summarize(verbose=False)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
