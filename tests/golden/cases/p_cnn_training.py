# source: original
# topic: printing
# compare: exact
# visibility: public
# A small CNN (Conv2d -> ReLU -> MaxPool2d -> Flatten -> Linear): its repr and a few SGD steps.
import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(1, 4, kernel_size=3, padding=1),
    nn.ReLU(),
    nn.MaxPool2d(2),
    nn.Conv2d(4, 8, kernel_size=3),
    nn.ReLU(),
    nn.AvgPool2d(2),
    nn.Flatten(),
    nn.Linear(8, 3),
)
print(model)
print(sum(p.numel() for p in model.parameters()))
x = torch.randn(6, 1, 8, 8)
y = torch.tensor([0, 1, 2, 0, 1, 2])
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loss_fn = nn.CrossEntropyLoss()
for step in range(5):
    opt.zero_grad()
    out = model(x)
    loss = loss_fn(out, y)
    loss.backward()
    opt.step()
    print(step, loss)
print(out.shape, out.grad_fn)
print(model[0].weight.grad[0])
print(model(x[:2]).argmax(dim=1))
