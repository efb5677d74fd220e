# source: original
# topic: embedding
# compare: exact
# visibility: public
# nn.Embedding(sparse=True) and F.embedding(..., sparse=True): the sparse COO weight gradient
# as PyTorch prints it (uncoalesced, one entry per looked-up row, padding_idx's left out),
# is_sparse, layout, to_dense, coalesce, _indices/_values and indices/values once coalesced,
# two lookups of one weight in one graph, and a plain SGD step that changes only those rows.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
emb = nn.Embedding(5, 3, sparse=True)
print(emb)
idx = torch.tensor([1, 3, 1])
out = emb(idx).sum()
out.backward()
print(emb.weight.grad)
print(emb.weight.grad.is_sparse)
print(emb.weight.grad.to_dense())
g = emb.weight.grad
print(g.layout, g.dtype, g.shape, g.requires_grad, g.grad_fn, g.is_coalesced(), g._nnz())
print(g._indices(), g._values())
c = g.coalesce()
print(c)
print(c.indices(), c.values(), c.is_coalesced(), c.coalesce() is c)
print(emb.weight.is_sparse, emb.weight.layout, torch.strided, torch.sparse_coo)
opt = torch.optim.SGD(emb.parameters(), lr=0.1)
opt.step()
print(emb.weight)

w = torch.tensor([[0.5, -1.0], [2.0, 0.25], [1.5, 1.0], [-0.5, 3.0]], requires_grad=True)
y = F.embedding(torch.tensor([[0, 2], [2, 3]]), w, sparse=True)
print(y.grad_fn.name(), y.grad_fn._saved_indices)
(y * torch.tensor([1.0, 2.0])).sum().backward()
print(w.grad)
w.grad = None
F.embedding(torch.tensor([3, 1, 3]), w, padding_idx=1, sparse=True).sum().backward()
print(w.grad)
w.grad = None
z = F.embedding(torch.tensor([1, 3]), w, sparse=True) + F.embedding(torch.tensor([2, 0]), w, sparse=True)
z.sum().backward()
print(w.grad)
w.grad = None
w64 = torch.ones(3, 2, dtype=torch.float64, requires_grad=True)
F.embedding(torch.tensor([2]), w64, sparse=True).sum().backward()
print(w64.grad)
