# source: original
# topic: F.scaled_dot_product_attention on 3-D inputs: the math path node for node (scaled matmuls, SafeSoftmaxBackward0), boolean and float masks, is_causal
# compare: exact
# visibility: public
import torch
import torch.nn.functional as F
def walk(fn, depth=0, maxd=8):
    if depth > maxd: return
    if fn is None: print("  "*depth + "None"); return
    print("  "*depth + fn.name())
    for f,_ in fn.next_functions: walk(f, depth+1, maxd)
q = torch.tensor([[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]], requires_grad=True)
k = torch.tensor([[[1.0, 2.0], [0.5, -1.0], [0.0, 1.0]]], requires_grad=True)
v = torch.tensor([[[1.0, 0.0], [0.0, 2.0], [3.0, 1.0]]], requires_grad=True)
o = F.scaled_dot_product_attention(q, k, v)
print(o); walk(o.grad_fn, 0, 3)
o = F.scaled_dot_product_attention(q, k, v, is_causal=True)
print(o); walk(o.grad_fn, 0, 2)
m = torch.tensor([[True, False, True], [True, True, False], [False, True, True]])
o = F.scaled_dot_product_attention(q, k, v, attn_mask=m)
print(o); walk(o.grad_fn, 0, 2)
o = F.scaled_dot_product_attention(q, k, v, attn_mask=m.float())
print(o); walk(o.grad_fn, 0, 2)
o = F.scaled_dot_product_attention(q.detach(), k.detach(), v.detach())
print(o)
o = F.scaled_dot_product_attention(q.double(), k.double(), v.double())
print(o); walk(o.grad_fn, 0, 9)
