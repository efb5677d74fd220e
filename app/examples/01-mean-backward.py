# title_en: Backward through a mean
# title_zh: 对均值做反向传播
# description: A scalar output, one backward() call, and the gradient 8x checked by hand.
import torch
torch.manual_seed(0)
x = torch.randn(3, requires_grad=True)
y = x * 2
z = y * y * 3
out = z.mean()
print(z, out)
out.backward()
# d(out)/dx = mean(12 x^2)' = 8 x
print(x.grad)
print(torch.allclose(x.grad, 8 * x))
print(out.grad_fn.name(), z.grad_fn.name(), out.dim(), z.shape)
