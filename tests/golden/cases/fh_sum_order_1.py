# source: original
# topic: numerics
# compare: exact
# visibility: public
# The thermometer training loop of the tutorials, printing float(loss) with %f and .item():
# float32 sums and means add up in PyTorch's order (its last bits show after many epochs).
import torch
t_c = torch.tensor([0.5, 14.0, 15.0, 28.0, 11.0, 8.0, 3.0, -4.0, 6.0, 13.0, 21.0])
t_u = torch.tensor([35.7, 55.9, 58.2, 81.9, 56.3, 48.9, 33.9, 21.8, 48.4, 60.4, 68.4])
t_un = 0.1 * t_u
def model(t_u, w, b):
    return w * t_u + b
def loss_fn(t_p, t_c):
    squared_diffs = (t_p - t_c) ** 2
    return squared_diffs.mean()
def training_loop(n_epochs, learning_rate, params, t_u, t_c):
    for epoch in range(1, n_epochs + 1):
        if params.grad is not None:
            params.grad.zero_()
        t_p = model(t_u, *params)
        loss = loss_fn(t_p, t_c)
        loss.backward()
        with torch.no_grad():
            params -= learning_rate * params.grad
        if epoch % 500 == 0:
            print('Epoch %d, Loss %f' % (epoch, float(loss.detach())))
    return params
p = training_loop(5000, 1e-2, torch.tensor([1.0, 0.0], requires_grad=True), t_un, t_c)
print(p)
params = torch.tensor([1.0, 0.0], requires_grad=True)
optimizer = torch.optim.SGD([params], lr=1e-2)
for epoch in range(1, 3001):
    t_p = model(t_un, *params)
    loss = loss_fn(t_p, t_c)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if epoch % 1000 == 0:
        print(epoch, loss.item())
print(params)
params = torch.tensor([1.0, 0.0], requires_grad=True)
optimizer = torch.optim.Adam([params], lr=1e-1)
for epoch in range(1, 2001):
    loss = loss_fn(model(t_u, *params), t_c)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if epoch % 500 == 0:
        print(epoch, loss.item(), params.detach().tolist())
x = torch.tensor([0.1, 0.7, 1.3, 2.9, 3.3, 4.1, 5.7, 6.2, 7.9, 8.8, 9.1, 10.5, 11.7, 12.2])
for n in (3, 5, 9, 14):
    print(n, x[:n].sum().item(), x[:n].mean().item(), (x[:n] * 1.1).sum(dim=0).item())
print(torch.full((3,), -0.0).sum(), torch.full((5,), -0.0).mean(), torch.full((9,), -0.0).sum())
