"""A second backward's error names the node PyTorch fails at: the first one on the walk that
saved a *tensor* (now freed), not one that saved only sizes or scalars. In PyTorch,
`loss2 = (x ** 2 * 4).sum()` fails at MulBackward0, whose `_saved_other` (the wrapped 4) is
freed; SumBackward0 keeps its `_saved_self_sym_sizes` and runs fine."""
from gradstep.runner import run_program

PROGRAM = """\
import torch
x = torch.ones((1, 4), requires_grad=True)
z = x ** 2 * 4
loss1 = z.mean()
loss2 = z.sum()
loss1.backward()
loss2.backward()
"""


def test_second_backward_error_is_on_the_first_node_with_a_freed_tensor():
    result = run_program(PROGRAM, trace=True)
    events = result.trace["events"]
    names = {e["node"]["id"]: e["node"]["name"] for e in events
             if e["kind"] == "op" and isinstance(e.get("node"), dict)}
    (error,) = [e for e in events if e["kind"] == "error"]
    assert error["line"] == 7
    assert names[error["node"]] == "MulBackward0"
    applied = [names.get(e["node"]) for e in events if e["kind"] == "node_apply"]
    assert applied[-1] == "SumBackward0"      # the pass got that far before failing
