import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 1))
criterion = nn.MSELoss()
optimizer = optim.SGD(model.parameters(), lr=0.05)
xs = torch.tensor([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.0]])
ys = torch.tensor([[1.0], [1.0], [0.0], [0.0]])
losses = []
for epoch in range(20):
    optimizer.zero_grad()
    loss = criterion(model(xs), ys)
    loss.backward()
    optimizer.step()
    losses.append(round(loss.item(), 4))
print(len(losses), losses[-1] <= losses[0])
optimizer.param_groups[0]["lr"] = 0.01
print(optimizer.param_groups[0]["lr"])
for name, p in model.named_parameters():
    print(name, tuple(p.shape), isinstance(p, nn.Parameter), p.requires_grad)
model.eval()
with torch.no_grad():
    out = F.relu(model(xs))
print(out.shape, out.requires_grad, model.training)
print(model)
