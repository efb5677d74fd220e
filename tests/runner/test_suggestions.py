"""Python 3.11's "Did you mean" at the end of an uncaught NameError or AttributeError, which
the runner adds itself (traceback's formatting leaves it to the interpreter's display)."""
import pytest

from gradstep.runner.suggestions import best_match, distance


@pytest.mark.parametrize("a,b,cost", [
    ("backwards", "backward", 2),       # one deletion
    ("Relu", "relu", 1),                # a change of case alone is cheaper
    ("gard", "grad", 4),                # a swap is two substitutions
    ("summ", "smm", 2),
    ("same", "same", 0),
])
def test_distance_weighs_moves_and_case(a, b, cost):
    assert distance(a.encode(), b.encode(), 100) == cost


def test_distance_gives_up_past_the_limit():
    assert distance(b"abcdefgh", b"zyxwvuts", 3) == 4


@pytest.mark.parametrize("candidates,name,expected", [
    (["backward", "grad"], "backwards", "backward"),
    (["grad", "grad_fn"], "gard", None),                  # 4 > (4 + 4 + 3) * 2 // 6
    (["abc", "abd"], "abx", "abc"),                       # a tie: the first listed wins
    (["x"] * 750, "y", None),                             # too many to search
    (["loss"], "loss", None),                             # the name itself is no suggestion
])
def test_best_match(candidates, name, expected):
    assert best_match(candidates, name) == expected


@pytest.mark.parametrize("source,last_line", [
    ("import torch\nx = torch.ones(2, requires_grad=True)\nx.backwards()\n",
     "AttributeError: 'Tensor' object has no attribute 'backwards'. Did you mean: 'backward'?"),
    ("import torch\nx = torch.ones(2)\nx.gard\n",
     "AttributeError: 'Tensor' object has no attribute 'gard'"),
    ("import torch\ntorch.Tensor.backwards\n",       # the class lists 751 names: none
     "AttributeError: type object 'Tensor' has no attribute 'backwards'"),
    ("import torch\ntorch.tensr([1.0])\n",           # dir(torch) is too long to search
     "AttributeError: module 'torch' has no attribute 'tensr'"),
    ("import torch.nn as nn\nnn.Linaer(2, 2)\n",
     "AttributeError: module 'torch.nn' has no attribute 'Linaer'. Did you mean: 'Linear'?"),
    ("import torch\ntorch.optim.adam\n",             # an engine submodule PyTorch lacks
     "AttributeError: module 'torch.optim' has no attribute 'adam'. Did you mean: 'Adam'?"),
    ("import torch.nn as nn\nm = nn.Linear(2, 2)\nm.weigth\n",
     "AttributeError: 'Linear' object has no attribute 'weigth'. Did you mean: 'weight'?"),
    ("import torch\nloss = torch.ones(1)\nprint(los)\n",
     "NameError: name 'los' is not defined. Did you mean: 'loss'?"),
    ("def f(alpha):\n    return alpa\nf(1)\n",
     "NameError: name 'alpa' is not defined. Did you mean: 'alpha'?"),
    ("pritn(1)\n", "NameError: name 'pritn' is not defined. Did you mean: 'print'?"),
    ("sbx_ga\n", "NameError: name 'sbx_ga' is not defined"),    # not the sandbox's _sbx_ga
])
def test_the_last_line_ends_with_python_s_suggestion(pool, source, last_line):
    result = pool.run(source, trace=False)
    assert result.stderr.rstrip("\n").splitlines()[-1] == last_line


def test_python_written_tensor_methods_match_the_recorded_list():
    # a wrong keyword to these names "Tensor.norm()", to the others "sum()" (tensor_ops.py)
    from gradstep import engine
    from gradstep.engine.tensor_ops import PYTHON_METHODS
    from gradstep.engine.upstream_names import NAMES
    ours = {n for n in dir(engine.Tensor) if not n.startswith("_")}
    assert PYTHON_METHODS == NAMES["Tensor:python"] & ours
