# source: original
# topic: F.scaled_dot_product_attention's input checks: query, key and value of one dtype
#   (named as C++ types), at least 2-D, and a mask that is bool, float or the query's dtype
# compare: exact
# visibility: public
import torch
import torch.nn.functional as F

q = torch.ones(2, 3, 4)
cases = [(q, q.double(), q, None), (q, q, q.half(), None),
         (torch.ones(4), torch.ones(4), torch.ones(4), None),
         (q, q, q, torch.zeros(3, 3, dtype=torch.long)),
         (q, q, q, torch.zeros(3, 3, dtype=torch.double)),
         (q, q, q, torch.zeros(3, 3, dtype=torch.half)),
         (torch.ones(2, 1, 3, 4), torch.ones(2, 1, 3, 4), torch.ones(2, 1, 3, 4).double(), None)]
for query, key, value, mask in cases:
    try:
        print(F.scaled_dot_product_attention(query, key, value, attn_mask=mask).shape)
    except RuntimeError as e:
        print(e)
qd = torch.tensor([[[0.5, -1.0], [2.0, 0.25]]], dtype=torch.float64, requires_grad=True)
mask = torch.tensor([[0.0, float("-inf")], [0.0, 0.0]])
out = F.scaled_dot_product_attention(qd, qd, qd, attn_mask=mask)
print(out)
