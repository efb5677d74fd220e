"""W2 the seed article's thermometer training loop: 5000 epochs of the manual update
`params = (params - lr * params.grad).detach().requires_grad_()` on eleven readings."""
import torch

EPOCHS = 5000
T_C = [0.5, 14.0, 15.0, 28.0, 11.0, 8.0, 3.0, -4.0, 6.0, 13.0, 21.0]
T_U = [35.7, 55.9, 58.2, 81.9, 56.3, 48.9, 33.9, 21.8, 48.4, 60.4, 68.4]


def setup():
    return torch.tensor(T_U) * 0.1, torch.tensor(T_C)


def run(state):
    t_u, t_c = state
    params = torch.tensor([1.0, 0.0], requires_grad=True)
    loss = None
    for _ in range(EPOCHS):
        if params.grad is not None:
            params.grad.zero_()
        t_p = params[0] * t_u + params[1]
        loss = ((t_p - t_c) ** 2).mean()
        loss.backward()
        params = (params - 1e-2 * params.grad).detach().requires_grad_()
    return float(loss)
