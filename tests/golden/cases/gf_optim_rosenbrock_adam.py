# source: original
# topic: optim
# compare: exact
# visibility: public
# Adam on the Rosenbrock function from a blog post, printing f, x, y every 200 steps in
# f-strings with format specs, then the parameter tensor.
import torch
def rosenbrock(x, y):
    return (1 - x) ** 2 + 100 * (y - x ** 2) ** 2
xy = torch.tensor([-1.5, 2.0], requires_grad=True)
opt = torch.optim.Adam([xy], lr=0.05)
for i in range(1001):
    opt.zero_grad()
    f = rosenbrock(xy[0], xy[1])
    f.backward()
    opt.step()
    if i % 200 == 0:
        print(f"iter {i}: f={f.item():.6f} x={xy[0].item():.4f} y={xy[1].item():.4f}")
print(xy)
