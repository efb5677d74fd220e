# source: original
# topic: grad_fn
# compare: exact
# visibility: public
# 1-D pooling over sequences: PyTorch unsqueezes, pools in 2-D and squeezes back.
import torch
import torch.nn as nn
import torch.nn.functional as F

s = torch.tensor([[[1., 4., 2., 8., 5., 7., 0.],
                   [3., 3., 6., 1., 9., 2., 4.]]], requires_grad=True)
m = F.max_pool1d(s, 2)
print(m)
print(m.grad_fn.name(), m.grad_fn._saved_dim, m.grad_fn._saved_self_sym_sizes)
inner = m.grad_fn.next_functions[0][0]
print(inner.name(), inner._saved_kernel_size, inner._saved_stride, inner._saved_padding)
print(inner._saved_dilation, inner._saved_result1, inner.next_functions[0][0].name())
m.sum().backward()
print(s.grad)
s.grad = None
v, i = F.max_pool1d(s, 3, stride=2, padding=1, return_indices=True)
print(v, i)
(v * v).sum().backward()
print(s.grad)
s.grad = None
a = F.avg_pool1d(s, 3, stride=2, padding=1, count_include_pad=False)
print(a, a.grad_fn.next_functions[0][0].name())
inner = a.grad_fn.next_functions[0][0]
print(inner._saved_kernel_size, inner._saved_stride, inner._saved_padding)
a.sum().backward()
print(s.grad)
s.grad = None
b = F.adaptive_avg_pool1d(s, 3)
print(b, b.grad_fn.next_functions[0][0].name())
b.sum().backward()
print(s.grad)
s.grad = None
c, ci = F.adaptive_max_pool1d(s, 4, return_indices=True)
print(c, ci, c.grad_fn.next_functions[0][0].name())
c.sum().backward()
print(s.grad)
print(F.adaptive_avg_pool1d(s, 1).grad_fn.next_functions[0][0].name())
print(torch.max_pool1d(s, 2).shape, torch.avg_pool1d(s, 2).shape, torch.adaptive_max_pool1d(s, 2))
print(F.max_pool1d(s[0], 2, ceil_mode=True), F.avg_pool1d(s[0], 2, ceil_mode=True))
layers = nn.Sequential(nn.MaxPool1d(2), nn.AvgPool1d(2), nn.AdaptiveAvgPool1d(1),
                       nn.AdaptiveMaxPool1d(1))
print(layers)
print(layers(s), nn.MaxPool1d(3, 1, 1, return_indices=True)(s)[1])
