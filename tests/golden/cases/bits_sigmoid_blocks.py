# source: original
# topic: bits
# compare: exact
# visibility: public
# sigmoid to the last bit: PyTorch's vectorised loop takes 32 float32 values at a time with
# Sleef's expf and the rest one by one, so lengths around 32 and 2-D layouts are printed with
# .tolist(); BCEWithLogitsLoss and silu on the same values, and the gradients.
import torch
import torch.nn.functional as F

for n in (5, 31, 32, 33, 70):
    x = torch.linspace(-7.5, 6.25, n)
    print(n, torch.sigmoid(x).tolist())
g = torch.linspace(-3.3, 2.9, 70).reshape(7, 10)
print(torch.sigmoid(g).tolist()[3], torch.sigmoid(g.t()).tolist()[2])
w = torch.linspace(-6, 6, 40, requires_grad=True)
t = (torch.arange(40) % 3 == 0).float()
loss = F.binary_cross_entropy_with_logits(w, t)
loss.backward()
print(loss.item(), w.grad.tolist()[::5])
print(F.silu(w).tolist()[28:36])
s = torch.sigmoid(w)
s.sum().backward()
print(w.grad.tolist()[30:34])
