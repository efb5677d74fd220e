# source: original
# topic: factories
# compare: exact
# visibility: public
# torch.normal with tensor means or stds, and out= on the elementwise, reduction, matmul and
# joining functions, including PyTorch's refusal when an input requires grad.
import torch

torch.manual_seed(0)
print(torch.normal(torch.zeros(3), 1.0))
print(torch.normal(2.0, torch.ones(2)))
print(torch.normal(torch.zeros(2), torch.ones(2)))
print(torch.normal(mean=torch.arange(1., 4.), std=torch.tensor([1., 0.5, 0.1])))
print(torch.normal(torch.zeros(2, 1, dtype=torch.float64), torch.ones(3)))
print(torch.randint(0, 10, size=(3,)))
x = torch.tensor([1., 2.])
buf = torch.empty(2)
print(torch.exp(x, out=buf), buf)
print(torch.matmul(torch.ones(2, 2), x, out=torch.empty(2)))
print(torch.sum(x, 0, out=torch.empty(())))
print(torch.mean(torch.ones(2, 3), dim=1, out=torch.empty(2)))
print(torch.cat([x, x], out=torch.empty(4)))
print(torch.stack([x, x], out=torch.empty(2, 2)))
print(torch.clamp(x, min=1.5, out=torch.empty(2)))
print(torch.pow(x, 2, out=torch.empty(2)))
w = torch.tensor([1., 2.], requires_grad=True)
for f in (lambda: torch.exp(w, out=torch.empty(2)),
          lambda: torch.matmul(torch.ones(2, 2), w, out=torch.empty(2)),
          lambda: torch.sum(w, 0, out=torch.empty(()))):
    try:
        f()
    except RuntimeError as e:
        print("RuntimeError", e)
with torch.no_grad():
    print(torch.exp(w, out=torch.empty(2)))
