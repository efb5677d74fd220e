# source: original
# topic: transformer
# compare: exact
# visibility: public
# nn.Transformer (encoder and decoder stacks, Xavier-initialised), TransformerDecoderLayer
# (post- and pre-norm), the causal mask and its detection, gradients, the batch-size error.
import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=2, dim_feedforward=16, dropout=0.0)
print(model.decoder.layers[0])
src = torch.randn(5, 2, 8)
tgt = torch.randn(4, 2, 8)
mask = model.generate_square_subsequent_mask(4)
print(mask)
out = model(src, tgt, tgt_mask=mask)
print(out.shape, out.grad_fn)
print(out[0, 0])
(out * torch.linspace(-1, 1, 8)).sum().backward()
print(model.decoder.layers[1].multihead_attn.in_proj_weight.grad[0])
print(model.encoder.layers[0].linear1.weight.grad[0, :4])
dec = nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, batch_first=True, norm_first=True)
mem = torch.randn(2, 3, 8)
y = dec(torch.randn(2, 4, 8), mem, tgt_mask=nn.Transformer.generate_square_subsequent_mask(4), tgt_is_causal=True)
print(y[1, 2], y.grad_fn)
enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0), 2, enable_nested_tensor=False)
z = enc(torch.randn(4, 1, 8), mask=nn.Transformer.generate_square_subsequent_mask(4))
print(z[3, 0])
try:
    model(src, torch.randn(4, 3, 8))
except RuntimeError as e:
    print(e)
