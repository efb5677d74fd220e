# source: original
# topic: 4-D scaled_dot_product_attention (one ScaledDotProductFlashAttentionForCpuBackward0 node), need_weights=False, nn.TransformerEncoderLayer and nn.TransformerEncoder in eval mode
# compare: numeric
# visibility: public
import torch
import torch.nn.functional as F
torch.manual_seed(0)
q = torch.tensor([[[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], [[0.5, -1.0], [2.0, 0.0], [0.0, 0.0]]]], requires_grad=True)
o = F.scaled_dot_product_attention(q, q * 2, q - 1)
print(o, o.grad_fn.name(), [f[0].name() for f in o.grad_fn.next_functions])
o.sum().backward()
print(q.grad)
o = F.scaled_dot_product_attention(q, q, q, is_causal=True)
print(o)
# PyTorch's fused kernel rounds differently in the last bits: three decimals from here on
torch.set_printoptions(precision=3)
layer = torch.nn.TransformerEncoderLayer(d_model=4, nhead=2, dim_feedforward=8)
print(layer)
print([n for n, _ in layer.named_parameters()])
layer.eval()
x = torch.tensor([[[1.0, 0.0, -1.0, 2.0]], [[0.5, 0.5, 0.5, 0.5]], [[-1.0, 2.0, 0.0, 1.0]]], requires_grad=True)
y = layer(x)
print(y)
y.sum().backward()
print(x.grad)
with torch.no_grad():
    print(layer(x))
mha = layer.self_attn
out, w = mha(x, x, x, need_weights=False)
print(out, w, out.grad_fn.name())
l2 = torch.nn.TransformerEncoderLayer(4, 1, 6, dropout=0.0, activation="gelu", batch_first=True, norm_first=True)
print(l2(x.transpose(0, 1)))
enc = torch.nn.TransformerEncoder(l2, num_layers=2)
print(enc)
print(enc(x.transpose(0, 1)))
