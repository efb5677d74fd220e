"""W6 a small-matmul training loop: linear regression `x @ w + b` on a batch of 32 with three
features, MSE and optim.SGD, for 1000 epochs: the matrix products a learner's first model
makes, which the engine sums in PyTorch's order (engine/ops/_mm_order.py)."""
import torch

EPOCHS = 1000
X = [[((i * 7 + j * 3) % 11 - 5) / 4.0 for j in range(3)] for i in range(32)]
TRUE_W = [[2.0], [-1.0], [0.5]]
NOISE = [[((i * 5) % 7 - 3) / 20.0] for i in range(32)]  # so that the loss stays above zero


def setup():
    x = torch.tensor(X)
    return x, x @ torch.tensor(TRUE_W) + 0.3 + torch.tensor(NOISE)


def run(state):
    x, y = state
    w = torch.zeros(3, 1, requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    opt = torch.optim.SGD([w, b], lr=0.1)
    loss = None
    for _ in range(EPOCHS):
        loss = ((x @ w + b - y) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()
