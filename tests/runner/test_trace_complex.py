"""A program with complex tensors records a valid trace: their values travel as PyTorch's
printed text (`data` is null, the schema's numbers being real), their nodes and gradients as
for any other dtype, and the program's output is PyTorch's."""
from recorded import events_of as _events, record_clean

PROGRAM = """\
import torch
z = torch.tensor([1 + 2j, -3 + 0.5j], requires_grad=True)
w = torch.complex(torch.tensor([1.0, 2.0]), torch.tensor([0.5, -1.0]))
y = (z * w).exp()
loss = y.abs().sum()
loss.backward()
print(z.grad)
print(torch.view_as_real(z.detach()))
"""

# what PyTorch 2.13 prints for PROGRAM
PRINTED = ("tensor([1.0000-0.5000j, 0.0082+0.0041j])\n"
           "tensor([[ 1.0000,  2.0000],\n"
           "        [-3.0000,  0.5000]])\n")


def test_complex_program_traces(pool):
    trace = record_clean(pool, PROGRAM, PRINTED)

    z = _events(trace, "tensor")[0]["tensor"]
    assert z["name"] == "z" and z["dtype"] == "torch.complex64"
    assert z["value"]["data"] is None
    assert z["value"]["repr"] == "tensor([ 1.+2.0000j, -3.+0.5000j], requires_grad=True)"

    ops = {e["node"]["name"]: e["output"] for e in _events(trace, "op") if e["node"]}
    assert {"MulBackward0", "ExpBackward0", "AbsBackward0", "SumBackward0"} <= set(ops)
    assert ops["MulBackward0"]["dtype"] == "torch.complex64"
    assert ops["AbsBackward0"]["dtype"] == "torch.float32"
    assert ops["AbsBackward0"]["value"]["data"] is not None     # real again: numbers

    acc = _events(trace, "accumulate")
    assert len(acc) == 1
    assert acc[0]["after"]["repr"] == "tensor([1.0000-0.5000j, 0.0082+0.0041j])"
