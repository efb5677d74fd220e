# source: original
# topic: numerics
# compare: exact
# visibility: public
# Small float32 matrix products printed to the last bit: PyTorch's CPU BLAS chains fused
# multiply-adds over k, or (x @ w.t(), one row or one column) takes 16-lane dot products, and
# addmm adds the bias after the product; a Linear layer's output, gradients and SGD losses
# show it.
import torch


def grid(rows, cols, scale, shift=0.0):
    return (((torch.arange(rows * cols * 1.0) * 7 + shift) % 19 - 9) / scale).reshape(rows, cols)


a, b = grid(3, 5, 2.3), grid(5, 4, 3.1, 2.0)
print((a @ b).tolist())                         # both row-major: one chain per entry
x, w = grid(4, 5, 1.7, 1.0), grid(3, 5, 2.9, 5.0)
print((x @ w.t()).tolist())                     # both along k: dot products
print((a.t().contiguous().t() @ b).tolist())    # a column-major first operand
print(torch.mv(grid(2, 9, 1.3), grid(9, 1, 2.2)[:, 0]).tolist())
print(torch.mv(grid(6, 9, 1.3), grid(9, 1, 2.2)[:, 0]).tolist())
print((grid(1, 9, 1.9)[0] @ grid(9, 5, 2.7, 3.0)).tolist())
print((grid(6, 9, 1.9) @ grid(1, 9, 2.7, 3.0)[0]).tolist())
print((grid(1, 7, 1.9) @ grid(1, 7, 2.1, 4.0).t()).tolist())
print(torch.dot(grid(1, 11, 1.1)[0], grid(1, 11, 2.3, 1.0)[0]).item())

# a Linear layer: F.linear is addmm(bias, x, w.t())
lin = torch.nn.Linear(5, 3)
with torch.no_grad():
    lin.weight.copy_(grid(3, 5, 4.3, 3.0))
    lin.bias.copy_(grid(1, 3, 5.9, 1.0)[0])
out = lin(x)
print(out.tolist())
out.pow(2).mean().backward()
print(lin.weight.grad.tolist())
print(lin.bias.grad.tolist())

# in_features 1: the bias enters each fused multiply-add (a rank-one update)
one = torch.nn.Linear(1, 3)
with torch.no_grad():
    one.weight.copy_(grid(3, 1, 2.3, 4.0))
    one.bias.copy_(grid(1, 3, 3.7)[0])
print(one(grid(4, 1, 1.3, 2.0)).tolist())

# a regression loop: Linear(4, 1) on 6 samples, five SGD steps
torch.manual_seed(0)
model = torch.nn.Linear(4, 1)
with torch.no_grad():
    model.weight.copy_(grid(1, 4, 6.1, 2.0))
    model.bias.fill_(0.1)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
xs, ys = grid(6, 4, 2.1, 3.0), grid(6, 1, 1.9, 8.0)
for step in range(5):
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(model(xs), ys)
    loss.backward()
    opt.step()
    print(step, loss.item())
print(model.weight.tolist(), model.bias.tolist())
