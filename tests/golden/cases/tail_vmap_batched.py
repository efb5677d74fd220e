# source: original
# topic: torch.vmap is torch.func.vmap; a vmapped op keeps its grad_fn; .item(), float(), .tolist() and bool() on a batched tensor refuse
# compare: exact
# visibility: public
import torch
x = torch.tensor([[1.0, -2.0], [3.0, -4.0]], requires_grad=True)
y = torch.vmap(torch.relu)(x)
print(y, y.grad_fn)
for f in (lambda t: t.sum().item(), lambda t: float(t.sum()), lambda t: t.tolist(), lambda t: bool(t.sum() > 0)):
    try:
        torch.vmap(f)(x)
    except RuntimeError as e:
        print("RuntimeError", e)
print(torch.vmap is torch.func.vmap)
# an in-place op runs once per example only; a one-op function keeps the op's grad_fn
x = torch.tensor([[1.0, -2.0], [3.0, -4.0]])
y = torch.vmap(torch.Tensor.mul_, in_dims=(0, None))(x, 2.0)
print(x, y)
print(torch.vmap(torch.sum)(x), torch.vmap(torch.dot)(x, x))
w = torch.tensor([[1.0, -2.0], [3.0, -4.0]], requires_grad=True)
print(torch.vmap(torch.sigmoid)(w), torch.vmap(torch.add)(w, w))
