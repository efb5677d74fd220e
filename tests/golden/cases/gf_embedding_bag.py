# source: original
# topic: nn.EmbeddingBag and F.embedding_bag, as the text classification tutorial uses them:
#   bags cut at offsets or given as rows, sum/mean/max, per_sample_weights, padding_idx,
#   include_last_offset, empty bags, EmbeddingBagBackward0, gradients to the last bit, the
#   argument errors, and how the module prints
# compare: exact
# visibility: public
import torch
import torch.nn as nn
import torch.nn.functional as F

w = (torch.arange(35.0).view(7, 5) * 0.37).sin().requires_grad_()
idx = torch.tensor([1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 3, 3, 6])
offsets = torch.tensor([0, 3, 10])
upstream = torch.arange(15.0).view(3, 5) / 7
for mode in ["sum", "mean", "max"]:
    out = F.embedding_bag(idx, w, offsets, mode=mode)
    print(mode, out.tolist())
    w.grad = None
    (out * upstream).sum().backward()
    print(w.grad.tolist())
print(out.grad_fn, out.grad_fn.next_functions)
weights = torch.linspace(-1.0, 2.0, 13, requires_grad=True)
out = F.embedding_bag(idx, w, offsets, mode="sum", per_sample_weights=weights)
print(out.tolist())
(out * upstream).sum().backward()
print(weights.grad.tolist())
print(F.embedding_bag(idx, w, offsets, mode="mean", padding_idx=3))
print(F.embedding_bag(idx, w, torch.tensor([0, 2, 2]), mode="sum"))
print(F.embedding_bag(idx, w, torch.tensor([0, 2, 13]), include_last_offset=True))
print(F.embedding_bag(torch.tensor([[1, 2], [3, 3]]), w, mode="max"))

bag = nn.EmbeddingBag(7, 5, mode="sum", padding_idx=0)
print(bag, bag.weight[0])
with torch.no_grad():
    bag.weight.copy_(w)
print(bag(idx, offsets))
print(nn.EmbeddingBag.from_pretrained(torch.ones(3, 2), mode="max"),
      nn.EmbeddingBag.from_pretrained(torch.ones(3, 2)).weight.requires_grad)
print(nn.EmbeddingBag(4, 2, max_norm=1.0, norm_type=1.0, scale_grad_by_freq=True))

for call in [lambda: bag(idx), lambda: bag(torch.tensor([[1, 2]]), offsets),
             lambda: bag(idx, torch.tensor([1, 2])), lambda: bag(torch.tensor([1, 9]),
                                                                 torch.tensor([0])),
             lambda: F.embedding_bag(idx, w, offsets, per_sample_weights=torch.ones(13)),
             lambda: F.embedding_bag(idx, w, offsets, per_sample_weights=torch.ones(3)),
             lambda: F.embedding_bag(idx, w, offsets, mode="median"),
             lambda: F.embedding_bag(idx, w[0], offsets),
             lambda: F.embedding_bag(idx.view(1, 1, -1), w)]:
    try:
        print(call())
    except (ValueError, RuntimeError, NotImplementedError) as e:
        print(type(e).__name__, e)
