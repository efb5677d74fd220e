import torch
x = torch.tensor([-1.0, -0.1, -0.05], requires_grad=True)
y = x * 2
index = 0
while y.data.norm() < 1000:
    y = y * 2
    index = index + 1
v = torch.tensor([0.5, 0.5, 0.5], dtype=torch.float)
y.backward(v)
print(index, x.grad)
try:
    y.backward(v)
except RuntimeError as err:
    print(str(err).split(".")[0])
