# source: original
# topic: grad-fn
# compare: exact
# visibility: public
# no_grad, enable_grad, set_grad_enabled and inference_mode decide whether a graph is recorded.
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    a = x * 2
    with torch.enable_grad():
        b = x * 2
print(a, a.requires_grad, a.grad_fn)
print(b, torch.is_grad_enabled())
with torch.set_grad_enabled(False):
    c = x + 1
print(c.requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(False)
print(torch.is_grad_enabled(), (x * 1).requires_grad)
torch.set_grad_enabled(True)
with torch.inference_mode():
    d = x * 2
print(d, d.requires_grad, d.is_leaf)


@torch.no_grad()
def step(t):
    return t * 10


print(step(x))
print(x.detach().requires_grad, x.detach().is_leaf, x.data)
