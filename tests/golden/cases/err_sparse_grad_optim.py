# source: original
# topic: errors
# compare: exact
# visibility: public
# Errors around sparse embedding gradients, in PyTorch's types and words: indices()/values()
# of an uncoalesced tensor, scale_grad_by_freq, SGD's weight_decay, Adam, AdamW, RMSprop and
# SparseAdam given a dense gradient; SGD with momentum takes it.
import torch
import torch.nn.functional as F


def sparse_grad():
    w = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
    F.embedding(torch.tensor([2, 0, 2]), w, sparse=True).sum().backward()
    return w


w = sparse_grad()
attempts = [
    lambda: w.grad.indices(),
    lambda: w.grad.values(),
    lambda: F.embedding(torch.tensor([1, 1]), w, scale_grad_by_freq=True,
                        sparse=True).sum().backward(),
    lambda: torch.optim.SGD([sparse_grad()], lr=0.1, weight_decay=0.01).step(),
    lambda: torch.optim.Adam([sparse_grad()]).step(),
    lambda: torch.optim.AdamW([sparse_grad()]).step(),
    lambda: torch.optim.RMSprop([sparse_grad()]).step(),
    lambda: torch.optim.SparseAdam([torch.ones(2, requires_grad=True)], lr=0.0),
]
for attempt in attempts:
    try:
        attempt()
        print("no error")
    except Exception as e:
        print(type(e).__name__, e)
d = torch.ones(2, requires_grad=True)
d.sum().backward()
try:
    torch.optim.SparseAdam([d]).step()
except RuntimeError as e:
    print(type(e).__name__, e)
m = sparse_grad()
opt = torch.optim.SGD([m], lr=0.1, momentum=0.9)
opt.step()
print(m)
torch.optim.Adam([m]).step()
