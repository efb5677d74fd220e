# source: original
# topic: errors
# compare: exact
# visibility: public
# expand() and repeat() given fewer sizes than the tensor has dims, and a factory given
# requires_grad=1 (an int, where the argument parser wants a bool).
import torch

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
attempts = [
    lambda: x.expand(2), lambda: x.double().expand(3),
    lambda: torch.ones(2, 1, dtype=torch.long).expand(4), lambda: x.expand(1, 2, 3).shape,
    lambda: x.repeat(2), lambda: x.repeat(2, 1), lambda: x.repeat(1, 1, 2).shape,
    lambda: torch.ones(3).repeat(2),
    lambda: torch.tensor([1.0], requires_grad=1), lambda: torch.zeros(2, requires_grad=None),
    lambda: torch.ones(2, requires_grad=1), lambda: torch.full((2,), 1.0, requires_grad=1),
    lambda: torch.zeros_like(x, requires_grad=1), lambda: torch.ones(2, requires_grad=False),
    lambda: torch.tensor([1.0], requires_grad=0.0), lambda: torch.empty(2, requires_grad="yes"),
]
for attempt in attempts:
    try:
        print(attempt())
    except (RuntimeError, TypeError) as e:
        print(type(e).__name__, e)
