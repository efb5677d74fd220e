# softmax and log_softmax over a dim that is not the last, printed to the last bit: PyTorch's
# kernels vectorise across the later dims, add down the dim row by row, and softmax divides by
# the sum (its backward accumulates sum(grad * out) with fused multiply-adds).
import torch

x = (((torch.arange(24.0) * 7) % 11 - 5) / 3.3).reshape(4, 6).requires_grad_()
g = (((torch.arange(24.0) * 5) % 9 - 4) / 2.1).reshape(4, 6)
y = torch.softmax(x, dim=0)
print(y.tolist())
y.backward(g)
print(x.grad.tolist())
x.grad = None
z = torch.log_softmax(x, dim=0)
print(z.tolist())
z.backward(g)
print(x.grad.tolist())
print(torch.softmax(x.detach().reshape(2, 3, 4), dim=1).tolist())
