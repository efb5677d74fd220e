# title_en: A second backward without retain_graph
# title_zh: 没有 retain_graph 的第二次反向传播
# description: The first backward frees the saved tensors, so the second one fails, in PyTorch's words.
# "如果上面没有设置 retain_graph = True，这里会报错"
import torch
x = torch.ones((1, 4), dtype=torch.float32, requires_grad=True)
y = x ** 2
z = y * 4
loss1 = z.mean()
loss2 = z.sum()
print(loss1, loss2)
loss1.backward()
print(x.grad)
loss2.backward()
print(x.grad)
