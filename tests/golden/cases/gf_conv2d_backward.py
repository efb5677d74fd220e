# source: original
# topic: grad_fn
# compare: exact
# visibility: public
# Conv2d's grad_fn, what it saves, and the gradients of input, weight and bias.
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
conv = nn.Conv2d(2, 3, 2, stride=1, padding=1)
x = torch.randn(1, 2, 3, 3, requires_grad=True)
y = conv(x)
print(y.grad_fn)
print(y.grad_fn.name(), [type(f).__name__ for f, _ in y.grad_fn.next_functions])
g = y.grad_fn
print(g._saved_stride, g._saved_padding, g._saved_dilation, g._saved_groups)
print(g._saved_transposed, g._saved_output_padding, g._saved_bias_sym_sizes_opt)
print(g._saved_input is x, g._saved_weight is conv.weight)
(y ** 2).mean().backward()
print(x.grad)
print(conv.weight.grad)
print(conv.bias.grad)
z = F.conv2d(x, conv.weight, stride=2, dilation=2, padding=2)
print(z.grad_fn.next_functions[2], z.grad_fn._saved_bias_sym_sizes_opt)
x.grad = None
z.sum().backward()
print(x.grad)
