import torch
from torch import nn


class TwoLayer(nn.Module):
    def __init__(self, d_in, d_hidden):
        super().__init__()
        self.hidden = nn.Linear(d_in, d_hidden)
        self.out = nn.Linear(d_hidden, 1)
        self.calls = 0

    def forward(self, x):
        self.calls += 1
        return self.out(torch.tanh(self.hidden(x)))


torch.manual_seed(2)
net = TwoLayer(3, 5)
x = torch.randn(4, 3)
y = net(x)
y.sum().backward()
print(y.shape, net.calls, net.hidden.weight.grad.shape, type(net.out).__name__)
print(len(list(net.children())), [n for n, _ in net.named_children()])
