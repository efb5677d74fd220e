# source: original
# topic: errors
# compare: exact
# visibility: public
# Embedding, one_hot, layer_norm and batch_norm errors in PyTorch's types and words, caught
# and printed, then one uncaught.
import torch
import torch.nn as nn
import torch.nn.functional as F

emb = nn.Embedding(5, 3)
attempts = [
    lambda: nn.Embedding(5, 3, padding_idx=5),
    lambda: nn.Embedding(5, 3, padding_idx=-6),
    lambda: emb(torch.tensor([5])),
    lambda: emb(torch.tensor([-1])),
    lambda: emb(torch.tensor([1.0])),
    lambda: F.embedding(torch.tensor([0]), torch.ones(3)),
    lambda: nn.Embedding.from_pretrained(torch.ones(3)),
    lambda: F.one_hot(torch.tensor([1.0])),
    lambda: F.one_hot(torch.tensor([3]), 2),
    lambda: F.one_hot(torch.tensor([-1])),
    lambda: F.one_hot(torch.tensor([], dtype=torch.long)),
    lambda: nn.LayerNorm(4)(torch.ones(2, 3)),
    lambda: nn.LayerNorm([2, 3])(torch.ones(3, 2)),
    lambda: F.layer_norm(torch.ones(2, 4), (4,), torch.ones(3)),
    lambda: nn.BatchNorm1d(3)(torch.ones(1, 3)),
    lambda: nn.BatchNorm1d(3)(torch.ones(2, 4)),
    lambda: nn.BatchNorm1d(3)(torch.ones(3)),
]
for attempt in attempts:
    try:
        attempt()
    except Exception as e:
        print(type(e).__name__, e)
nn.BatchNorm1d(2)(torch.ones(2, 2, 3, 4))
