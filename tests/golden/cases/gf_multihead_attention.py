# source: original
# topic: nn.MultiheadAttention: seeded weights, repr, graph, need_weights and average_attn_weights, attn_mask, key_padding_mask, unbatched, batch_first, no bias, cross-attention
# compare: exact
# visibility: public
import torch
def walk(fn, depth=0, maxd=8):
    if depth > maxd: return
    if fn is None: print("  "*depth + "None"); return
    print("  "*depth + fn.name())
    for f,_ in fn.next_functions: walk(f, depth+1, maxd)
torch.manual_seed(0)
mha = torch.nn.MultiheadAttention(4, 2)
print(mha, [(n, p) for n, p in mha.named_parameters()])
x = torch.tensor([[[1.0, 0.0, -1.0, 2.0]], [[0.5, 0.5, 0.5, 0.5]], [[-1.0, 2.0, 0.0, 1.0]]], requires_grad=True)
out, w = mha(x, x, x)
print(out, w)
walk(out.grad_fn, 0, 12); print("W"); walk(w.grad_fn, 0, 3)
(out.sum() + (w * torch.arange(9.0).view(1, 3, 3)).sum()).backward()
print(x.grad, mha.in_proj_weight.grad, mha.out_proj.bias.grad)
out, w = mha(x, x, x, average_attn_weights=False)
print(w)
mask = torch.tensor([[False, True, True], [False, False, True], [False, False, False]])
out, w = mha(x, x, x, attn_mask=mask)
print(out, w, out.grad_fn.name())
kpm = torch.tensor([[False, False, True]])
out, w = mha(x, x, x, key_padding_mask=kpm)
print(out, w)
out, w = mha(x[:, 0], x[:, 0], x[:, 0])
print(out, w)
mb = torch.nn.MultiheadAttention(4, 1, batch_first=True, bias=False)
print(mb)
y = x.transpose(0, 1)
o, w = mb(y, y, y)
print(o, w)
o, w = mb(y, y[:, :2], y[:, :2])
print(o, w)
