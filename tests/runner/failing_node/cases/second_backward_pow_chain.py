import torch
x = torch.ones((1, 4), requires_grad=True)
z = x ** 2 * 4
loss1 = z.mean()
loss2 = z.sum()
loss1.backward()
loss2.backward()
