# source: original
# topic: 2-norms to the last bit: 8-lane float32 (4-lane float64) squares, leftovers fused
# compare: exact
# visibility: public
import torch
import torch.nn.functional as F

for n in (1, 2, 3, 4, 5, 7, 8, 9, 12, 13, 15, 16, 19, 23, 29, 32, 37, 40):
    k = torch.arange(float(n))
    x = (((k * 7 + n) % 13 - 6) / 2.3 * 10.0 ** ((k * 3) % 5 - 2)).requires_grad_()
    y = x.norm()
    y.backward()
    print(n, y.item(), x.grad.tolist())
    print(torch.linalg.vector_norm(x.detach().double()).item())

m = ((torch.arange(60.0) * 11) % 17 - 8) / 3.1 * 10.0 ** ((torch.arange(60.0) % 4) - 1)
m = m.reshape(4, 15).requires_grad_()
r = m.norm(dim=1)
r.sum().backward()
print(r.tolist(), m.grad.tolist())
print(m.detach().norm(dim=0).tolist())
print(m.detach().t().norm().item(), m.detach()[::2].norm(dim=1).tolist())
print(F.normalize(m.detach(), dim=1).tolist())
print(F.pairwise_distance(m.detach()[:2], m.detach()[2:]).tolist())
print(torch.dist(m.detach()[0], m.detach()[3]).item())
