# source: original
# topic: grad-fn
# compare: exact
# visibility: public
# torch.autograd.grad(..., is_grads_batched=True): each row of grad_outputs is its own
# vector-Jacobian product (a whole Jacobian from torch.eye); and materialize_grads needs
# allow_unused left out or True.
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
(J,) = torch.autograd.grad(x ** 2, x, grad_outputs=torch.eye(3), is_grads_batched=True)
print(J)
y = x ** 3
print(torch.autograd.grad(y, x, torch.eye(3), is_grads_batched=True)[0])
try:
    y.sum().backward()
except RuntimeError as e:
    print(str(e)[:60])
w = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
b = torch.tensor([0.5, 1.5], requires_grad=True)
print(torch.autograd.grad(w @ b + b, b, torch.eye(2), is_grads_batched=True))
c = torch.tensor(1.0, requires_grad=True)
print(torch.autograd.grad(x * 2, [x, c], torch.eye(3)[:2], is_grads_batched=True,
                          allow_unused=True))
print(torch.autograd.grad(x * 2, [x, c], torch.eye(3)[:2], is_grads_batched=True,
                          materialize_grads=True))
for go in [torch.ones(3, 2), torch.ones(5, 2, 3)]:
    try:
        torch.autograd.grad(x * 2, x, go, is_grads_batched=True)
    except RuntimeError as e:
        print(e)
try:
    torch.autograd.grad(x * 2, [x, c], materialize_grads=True, allow_unused=False)
except ValueError as e:
    print(e)
print(torch.autograd.grad(x * 2, [x, c], torch.ones(3), materialize_grads=True))
