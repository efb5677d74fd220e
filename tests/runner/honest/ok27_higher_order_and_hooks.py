import torch
x = torch.tensor(2.0, requires_grad=True)
y = x ** 3
(g,) = torch.autograd.grad(y, x, create_graph=True)
(g2,) = torch.autograd.grad(g, x)
print(g, g2)
seen = []
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 2
b.retain_grad()
h = b.register_hook(lambda grad: seen.append(grad.sum().item()))
(b * b).sum().backward()
print(b.grad, a.grad, seen)
h.remove()
with torch.set_grad_enabled(False):
    c = a * 3
print(c.requires_grad, a.detach().numpy().tolist(), a.grad.data.zero_())
