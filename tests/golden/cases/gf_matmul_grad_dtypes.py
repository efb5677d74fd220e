# source: original
# topic: grad-fn
# compare: exact
# visibility: public
# Gradients reaching a matrix product in another dtype (a float64 consumer of a float32
# product, a float64 seed) are cast to the product's dtype first, as PyTorch casts between nodes.
import torch
x = torch.ones(2, 2, requires_grad=True); w = torch.full((2, 2), 0.3)
y = x @ w
z = y * torch.full((2, 2), 1.1, dtype=torch.float64)
z.sum().backward(); print(x.grad, x.grad.dtype)
a = torch.ones(3, requires_grad=True); b = torch.ones(3)
(torch.dot(a, b) * torch.tensor([2.0], dtype=torch.float64)).sum().backward(); print(a.grad)
m = torch.ones(2, 2, requires_grad=True)
out = torch.mm(m, torch.ones(2, 2)); out.backward(torch.ones(2, 2, dtype=torch.float64)); print(m.grad)
lin = torch.nn.Linear(2, 2)
(lin(torch.ones(3, 2)) * torch.ones(3, 2, dtype=torch.float64)).sum().backward(); print(lin.weight.grad, lin.bias.grad)
v = torch.ones(3, 2, requires_grad=True)
(torch.mv(v, torch.ones(2)) * torch.ones(3, dtype=torch.float64)).sum().backward(); print(v.grad)
q = torch.ones(2, 2, 2, requires_grad=True)
(torch.bmm(q, q) * torch.ones(2, 2, 2, dtype=torch.float64)).sum().backward(create_graph=True); print(q.grad)
