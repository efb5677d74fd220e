"""W3 a 2-layer MLP, batch 512 x 256 -> 256 -> 10, tanh, MSE loss, SGD: one step per call."""
import torch

BATCH, D_IN, HIDDEN, D_OUT = 512, 256, 256, 10


def setup():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(D_IN, HIDDEN), torch.nn.Tanh(),
                                torch.nn.Linear(HIDDEN, D_OUT))
    x = torch.randn(BATCH, D_IN)
    y = torch.randn(BATCH, D_OUT)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    return model, x, y, opt


def step(state):
    model, x, y, opt = state
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    return float(loss)
