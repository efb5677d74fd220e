# source: original
# topic: grad-fn
# compare: exact
# visibility: public
# .contiguous() copies a transposed tensor (CloneBackward0) so that .view works again.
import torch
x = torch.arange(6.0).view(2, 3).requires_grad_()
t = x.t()
print(t.is_contiguous())
try:
    t.view(-1)
except Exception as e:
    print(type(e).__name__, e)
c = t.contiguous()
print(c.is_contiguous(), c.grad_fn)
v = c.view(-1)
print(v)
(v * torch.arange(6.0)).sum().backward()
print(x.grad)
print(x.contiguous() is x)
