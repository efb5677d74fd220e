import copy
import torch

torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.Tanh(), torch.nn.Linear(3, 1))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
x = torch.tensor([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
y = torch.tensor([[1.0], [1.0], [0.0]])
best_loss, best_state = None, None
target = copy.deepcopy(net)          # a frozen copy, as DQN tutorials keep one
for epoch in range(5):
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(net(x), y)
    loss.backward()
    opt.step()
    if best_loss is None or loss.item() < best_loss:
        best_loss, best_state = loss.item(), copy.deepcopy(net.state_dict())
print(round(best_loss, 4), sorted(best_state))
print(target[0].weight.equal(net[0].weight), target[0].weight.requires_grad)
net.load_state_dict(best_state)
shallow = copy.copy([net, 1])
print(shallow[0] is net, copy.deepcopy({"lr": [0.1]}))


class Logged(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(1, 1)
        self.log = print                 # a model may hold print; its copy shares it

    def forward(self, v):
        return self.lin(v)


twin = copy.deepcopy(Logged())
twin.log(type(twin).__name__, twin.lin)
