# source: original
# topic: grad_fn
# compare: exact
# visibility: public
# max_pool2d and avg_pool2d: their grad_fn, what they save, and where the gradient goes.
import torch
import torch.nn as nn
import torch.nn.functional as F
x = torch.tensor([[[[1., 5., 2., 0.],
                    [3., 4., 8., 8.],
                    [0., 7., 6., 1.],
                    [2., 2., 9., 3.]]]], requires_grad=True)
m = F.max_pool2d(x, 2)
print(m)
g = m.grad_fn
print(g.name(), g._saved_kernel_size, g._saved_stride, g._saved_padding, g._saved_dilation)
print(g._saved_ceil_mode, g._saved_self is x)
print(g._saved_result1)
m.sum().backward()
print(x.grad)
x.grad = None
values, indices = nn.MaxPool2d(3, stride=1, padding=1, return_indices=True)(x)
print(values, indices, values.grad_fn._saved_stride)
(values * values).sum().backward()
print(x.grad)
x.grad = None
a = F.avg_pool2d(x, 3, stride=2, padding=1)
g = a.grad_fn
print(a)
print(g.name(), g._saved_kernel_size, g._saved_stride, g._saved_padding, g._saved_ceil_mode)
print(g._saved_count_include_pad, g._saved_divisor_override)
a.sum().backward()
print(x.grad)
x.grad = None
a = nn.AvgPool2d(2, stride=1, ceil_mode=True, count_include_pad=False)(x[0])
a.sum().backward()
print(a, x.grad)
print(F.avg_pool2d(x, 3, padding=1, count_include_pad=False, ceil_mode=True))
print(nn.MaxPool2d((2, 3), stride=(1, 2), padding=1, dilation=2, ceil_mode=True))
print(nn.AvgPool2d(3, 2, 1), nn.AvgPool2d((2, 2), count_include_pad=False))
