# Gradients of gradients printed to the last bit: PyTorch's mse_loss_double_backward is
# 2 * (grad * grad_output) / numel, huber's and smooth L1's grad * grad_output * [|d| < w]
# (/ beta) / numel; erf's gradient is (2 / sqrt(pi)) * exp(-x**2) * grad.
import torch
import torch.nn.functional as F

x = (((torch.arange(12.0) * 7) % 13 - 6) / 2.3).reshape(3, 4).requires_grad_()
t = (((torch.arange(12.0) * 5) % 11 - 5) / 3.1).reshape(3, 4)
v = (((torch.arange(12.0) * 3) % 7 - 3) / 1.7).reshape(3, 4)
for f in (lambda: F.mse_loss(x, t), lambda: F.huber_loss(x, t, delta=0.5),
          lambda: F.smooth_l1_loss(x, t, beta=0.5)):
    g, = torch.autograd.grad(f(), x, create_graph=True)
    print(type(g.grad_fn).__name__, g.tolist())
    print(torch.autograd.grad(g, x, v)[0].tolist() if g.requires_grad else None)

x.grad = None
torch.erf(x).backward(v)
print(x.grad.tolist())
