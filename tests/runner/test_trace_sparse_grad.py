"""A program whose embedding sends its weight a sparse gradient records a valid trace: the
program's output (the sparse gradient's printed text too) is PyTorch's, each accumulation is
recorded with the gradient's dense rows as its numbers (what the picture draws), and both
optimizer steps are recorded."""
from recorded import events_of as _events, record_clean

PROGRAM = """\
import torch
import torch.nn as nn
torch.manual_seed(0)
emb = nn.Embedding(5, 3, sparse=True)
emb(torch.tensor([1, 3, 1])).sum().backward()
print(emb.weight.grad)
print(emb.weight.grad.is_sparse, emb.weight.grad.coalesce().indices())
opt = torch.optim.SGD(emb.parameters(), lr=0.1)
opt.step()
opt.zero_grad()
emb(torch.tensor([4])).sum().backward()
torch.optim.SparseAdam(emb.parameters(), lr=0.1).step()
print(emb.weight[4])
"""

# what PyTorch 2.13 prints for PROGRAM
GRAD = ("tensor(indices=tensor([[1, 3, 1]]),\n"
        "       values=tensor([[1., 1., 1.],\n"
        "                      [1., 1., 1.],\n"
        "                      [1., 1., 1.]]),\n"
        "       size=(5, 3), nnz=3, layout=torch.sparse_coo)")
PRINTED = (GRAD + "\n"
           "True tensor([[1, 3]])\n"
           "tensor([-0.9567,  1.0006, -1.1712], grad_fn=<SelectBackward0>)\n")


def test_sparse_gradient_program_traces(pool):
    trace = record_clean(pool, PROGRAM, PRINTED)

    ops = {e["node"]["name"] for e in _events(trace, "op") if e["node"]}
    assert "EmbeddingBackward0" in ops
    acc = _events(trace, "accumulate")
    assert len(acc) == 2
    rows = acc[0]["after"]["data"]
    assert rows[1] == [2.0, 2.0, 2.0] and rows[3] == [1.0, 1.0, 1.0] and rows[0] == [0.0] * 3
    assert len(_events(trace, "optimizer_step")) == 2
