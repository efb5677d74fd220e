# source: original
# topic: einsum
# compare: exact
# visibility: public
# Last-bit values of einsums with ellipses and several operands (PyTorch contracts left to
# right through bmm), and of their gradients.
import torch

# inputs from exactly rounded arithmetic only (no transcendental functions), so the
# products alone decide the bits
a = ((torch.arange(24.0) * 0.731 - 8.0) / 3.0).view(2, 3, 4).requires_grad_()
b = ((torch.arange(20.0) * 0.517 - 5.0) / 7.0).view(4, 5).requires_grad_()
c = ((torch.arange(15.0) * 1.313 - 9.0) / 11.0).view(5, 3).requires_grad_()
d = ((torch.arange(6.0) * 0.9 - 2.0) / 3.0).view(3, 2).requires_grad_()
for eq, ops in [("...ij,jk->...ik", (a, b)), ("bij,jk,kl->bil", (a, b, c)),
                ("bij,jk,kl,lm->bm", (a, b, c, d)), ("...j,jk,ki->...", (a, b, c)),
                ("bij,jk,kl->", (a, b, c))]:
    y = torch.einsum(eq, *ops)
    print(eq, y.flatten().tolist())
    grads = torch.autograd.grad((y * y).sum(), ops)
    for g in grads:
        print(g.flatten().tolist())
