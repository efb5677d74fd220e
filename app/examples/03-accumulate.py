# title_en: Gradients accumulate
# title_zh: 梯度会累加
# description: Each backward() adds to .grad until zero_() resets it.
# "是积累（accumulate）而不是存储（store）": the gradient of a sum is 1, and it
# keeps adding up until it is zeroed.
import torch
params = torch.tensor([1.0, 0.0], requires_grad=True)
print(params.grad)
params.sum().backward()   # 第一次求导
print(params.grad)
params.sum().backward()   # 第二次求导
print(params.grad)
if params.grad is not None:
    params.grad.zero_()# 这可以在调用backward之前在循环中的任何时候完成
print(params.grad)
params.sum().backward()
print(params.grad)
