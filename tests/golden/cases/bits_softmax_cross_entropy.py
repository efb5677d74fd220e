# softmax, log_softmax and cross_entropy printed to the last bit: PyTorch's kernels
# exponentiate with Sleef's expf, add each row in vec::reduce_all's order, multiply by
# 1 / sum (softmax) or subtract max then log(sum) (log_softmax), and nll_loss adds its batch in
# a cascade; log_softmax's backward is one fused multiply-add.
import torch

logits = (((torch.arange(24.0) * 7) % 11 - 5) / 3.3).reshape(4, 6).requires_grad_()
print(torch.softmax(logits, dim=1).tolist())
print(torch.log_softmax(logits, dim=-1).tolist())
wide = (((torch.arange(40.0) * 5) % 13 - 6) / 2.1).reshape(2, 20)
print(torch.softmax(wide, dim=1).tolist())

target = torch.tensor([1, 0, 5, 2])
loss = torch.nn.functional.cross_entropy(logits, target)
print(loss.item())
loss.backward()
print(logits.grad.tolist())

logits.grad = None
g = (torch.arange(24.0) / 5.3).reshape(4, 6)
torch.softmax(logits, dim=1).backward(g)
print(logits.grad.tolist())

model = torch.nn.Linear(3, 5)
with torch.no_grad():
    model.weight.copy_((((torch.arange(15.0) * 4) % 7 - 3) / 4.7).reshape(5, 3))
    model.bias.copy_(torch.arange(5.0) / 9.1)
x = (((torch.arange(18.0) * 5) % 9 - 4) / 2.9).reshape(6, 3)
y = torch.tensor([0, 4, 1, 3, 2, 2])
print(torch.nn.functional.cross_entropy(model(x), y, reduction="sum").item())

# logsumexp: exp, PyTorch's sum along the dim, log, then + max
print(torch.logsumexp(logits.detach(), dim=1).tolist())
print(torch.logsumexp(wide, dim=-1, keepdim=True).tolist())
