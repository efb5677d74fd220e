# source: original
# topic: nn.MultiheadAttention with keys and values of their own widths (kdim, vdim: separate
#   q/k/v projection weights), add_bias_kv and add_zero_attn: parameters, outputs, weights,
#   gradients, the shape checks, and the warning for masks of different dtypes
# compare: numeric
# visibility: public
import torch
import torch.nn as nn


def fill(module):
    with torch.no_grad():
        for i, p in enumerate(module.parameters()):
            p.copy_(torch.linspace(-1.0, 1.0, p.numel()).view_as(p) * (0.5 + 0.1 * i))


mha = nn.MultiheadAttention(4, 2, kdim=3, vdim=5, batch_first=True)
fill(mha)
print(mha)
print([(name, tuple(p.shape)) for name, p in mha.named_parameters()])
q = torch.linspace(-1.0, 1.0, 24).view(2, 3, 4)
k = torch.linspace(-2.0, 1.0, 36).view(2, 6, 3)
v = torch.linspace(0.0, 1.0, 60).view(2, 6, 5)
out, w = mha(q, k, v)
print(out)
print(w, w.grad_fn)
out.sum().backward()
print(mha.k_proj_weight.grad)
print(mha.in_proj_bias.grad)

extra = nn.MultiheadAttention(4, 2, add_bias_kv=True, add_zero_attn=True)
fill(extra)
print([(name, tuple(p.shape)) for name, p in extra.named_parameters()])
x = torch.linspace(-1.0, 1.0, 24).view(3, 2, 4)
padding = torch.tensor([[False, False, True], [False, False, False]])
out, w = extra(x, x, x, key_padding_mask=padding, attn_mask=torch.zeros(3, 3))
print(out)
print(w)
out, w = extra(x, x, x, need_weights=False)
print(out.sum(), w)
out.sum().backward()
print(extra.bias_k.grad, extra.bias_v.grad)

plain = nn.MultiheadAttention(4, 2, bias=False, kdim=3, vdim=3)
fill(plain)
print(plain(x, torch.ones(5, 2, 3), torch.ones(5, 2, 3))[0].shape)
bad = [lambda: plain(x, torch.ones(5, 2, 3), torch.ones(4, 2, 3)),
       lambda: plain(x, torch.ones(5, 2, 4), torch.ones(5, 2, 3)),
       lambda: extra(x, x, x, attn_mask=torch.zeros(4, 3, 3)),
       lambda: extra(x, x, x, attn_mask=torch.zeros(1, 1, 3, 3)),
       lambda: extra(x, x, torch.ones(3, 2, 5)),
       lambda: extra(x, x, x, key_padding_mask=torch.zeros(3, 3, dtype=torch.bool))]
for call in bad:
    try:
        call()
    except (AssertionError, RuntimeError) as e:
        print(type(e).__name__, e)

layer = nn.TransformerEncoderLayer(d_model=4, nhead=2, dim_feedforward=8, dropout=0.0)
fill(layer)
mask = nn.Transformer.generate_square_subsequent_mask(3)
print(layer(x, src_mask=mask, src_key_padding_mask=padding))
