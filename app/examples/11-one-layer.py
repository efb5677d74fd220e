# title_en: A one-layer network
# title_zh: 单层神经网络
# description: matmul, a bias and binary_cross_entropy_with_logits; the gradients of w and b.
# The one-layer network with fixed instead of random parameters.
import torch

x = torch.ones(5)  # input tensor
y = torch.zeros(3)  # expected output
w = torch.tensor([[0.1, -0.2, 0.3]] * 5, requires_grad=True)
b = torch.tensor([0.5, 0.0, -1.0], requires_grad=True)
z = torch.matmul(x, w)+b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
print(z)
print(loss)
print('Gradient function for z =', type(z.grad_fn).__name__)
print('Gradient function for loss =', type(loss.grad_fn).__name__)
loss.backward()
print(w.grad)
print(b.grad)
