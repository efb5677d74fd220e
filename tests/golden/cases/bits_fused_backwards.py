# Gradients through tanh and sigmoid printed to the last bit: PyTorch's tanh_backward rounds
# 1 - y**2 once (a fused multiply-add) and sigmoid_backward multiplies (g * (1 - y)) * y.
import torch

x = torch.linspace(-3.0, 3.0, 61, requires_grad=True)
g = torch.linspace(-2.0, 2.0, 61)

torch.tanh(x).backward(g)
print(x.grad.tolist())

x.grad = None
torch.sigmoid(x).backward(g)
print(x.grad.tolist())

# second derivatives name PyTorch's fused kernels
x.grad = None
d, = torch.autograd.grad(torch.tanh(x).sum(), x, create_graph=True)
print(d.grad_fn)
print(torch.autograd.grad(d.sum(), x)[0][:5].tolist())
