import torch
w = torch.tensor([1.0, -1.0], requires_grad=True)
lr = 0.5
for i in range(3):
    loss = (w * w).sum()
    loss.backward()
    w.data -= lr * w.grad.data
    w.grad.zero_()
print(w)
w.grad = None
print(w.grad)
w.requires_grad = False
print(w.requires_grad)
