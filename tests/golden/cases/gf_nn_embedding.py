# source: original
# topic: embedding
# compare: exact
# visibility: public
# nn.Embedding and F.embedding: the seeded N(0, 1) weight with its padding row zeroed, the
# EmbeddingBackward0 node, the weight gradient summed over repeated indices (none into the
# padding row), the create_graph node, scale_grad_by_freq, from_pretrained and F.one_hot.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
emb = nn.Embedding(5, 3, padding_idx=1)
print(emb)
print(emb.weight)
print(list(emb.state_dict().keys()), [n for n, _ in emb.named_parameters()])
idx = torch.tensor([[0, 1, 2], [2, 2, 4]])
y = emb(idx)
print(y)
print(type(y.grad_fn).__name__, [type(f).__name__ for f, _ in y.grad_fn.next_functions])
print(y.grad_fn._saved_indices, y.grad_fn._saved_padding_idx)
(y * torch.arange(18.0).view(2, 3, 3)).sum().backward()
print(emb.weight.grad)

print(nn.Embedding(4, 2), nn.Embedding(4, 2, padding_idx=-1), nn.Embedding(4, 2, max_norm=1.0))
w = torch.tensor([[0.5, -1.0], [2.0, 0.25], [1.5, 1.0], [-0.5, 3.0]], requires_grad=True)
z = F.embedding(torch.tensor([3, 0, 3]), w, padding_idx=0)
print(z, z.grad_fn._saved_padding_idx)
g, = torch.autograd.grad((z * z).sum(), w, create_graph=True)
print(g)
print([type(f).__name__ for f, _ in g.grad_fn.next_functions])
g.sum().backward()
print(w.grad)

freq = nn.Embedding(4, 2, scale_grad_by_freq=True)
print(freq)
freq(torch.tensor([1, 1, 1, 2, 3, 3])).sum().backward()
print(freq.weight.grad)

pre = nn.Embedding.from_pretrained(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
print(pre, pre.weight.requires_grad, pre(torch.tensor([1, 0, 1])))
print(nn.Embedding.from_pretrained(torch.ones(2, 2), freeze=False).weight.requires_grad)

print(F.one_hot(torch.tensor([0, 2, 1])))
print(F.one_hot(torch.tensor([[0, 2], [1, 1]]), num_classes=4))
print(F.one_hot(torch.tensor(1), 3), F.one_hot(torch.tensor([], dtype=torch.long), 3))
