# source: original
# topic: embedding
# compare: exact
# visibility: public
# A second backward into a sparse embedding gradient: PyTorch concatenates the entries when
# the new values came from a broadcast (the grad of .sum()) and merges them row by row
# otherwise; a dense gradient meeting a sparse one; zero_grad (None, or an empty sparse
# tensor with set_to_none=False); autograd.grad returns the sparse gradient.
import torch
import torch.nn.functional as F

w = torch.ones(4, 2, requires_grad=True)
F.embedding(torch.tensor([1, 3, 1]), w, sparse=True).sum().backward()
F.embedding(torch.tensor([1, 2]), w, sparse=True).sum().backward()
print(w.grad, w.grad.is_coalesced())
(F.embedding(torch.tensor([0, 1]), w, sparse=True) * 2).sum().backward()
print(w.grad)
w.grad = None
(F.embedding(torch.tensor([3, 1, 3]), w, sparse=True) * 3).sum().backward()
(F.embedding(torch.tensor([2, 3]), w, sparse=True) * 2).sum().backward()
print(w.grad)
print(w.grad.coalesce())
w.grad = None
w.sum().backward()
F.embedding(torch.tensor([1, 2]), w, sparse=True).sum().backward()
print(w.grad, w.grad.is_sparse)
w.grad = None
F.embedding(torch.tensor([1, 2]), w, sparse=True).sum().backward()
(w * 2).sum().backward()
print(w.grad, w.grad.is_sparse)
opt = torch.optim.SGD([w], lr=0.5)
w.grad = None
F.embedding(torch.tensor([0]), w, sparse=True).sum().backward()
opt.zero_grad(set_to_none=False)
print(w.grad)
opt.zero_grad()
print(w.grad)
g, = torch.autograd.grad(F.embedding(torch.tensor([2, 0]), w, sparse=True).sum(), w)
print(g)
