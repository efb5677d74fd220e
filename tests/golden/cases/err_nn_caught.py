# source: original
# topic: errors
# compare: exact
# visibility: public
# nn and optim errors in PyTorch's types and words, caught and printed, then one uncaught.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.ones(4, 3)
attempts = [
    lambda: F.mse_loss(x, torch.ones(2, 3)),
    lambda: F.binary_cross_entropy_with_logits(x, torch.ones(4, 1)),
    lambda: F.binary_cross_entropy(x / 2, torch.ones(12)),
    lambda: F.binary_cross_entropy(x * 2, x),
    lambda: F.nll_loss(x, torch.tensor([0, 1, 2])),
    lambda: F.cross_entropy(x, torch.tensor([0, 1, 2, 3])),
    lambda: F.cross_entropy(x, torch.tensor([0.0, 1.0, 2.0, 1.0])),
    lambda: F.cross_entropy(x, torch.ones(4, 2)),
    lambda: F.mse_loss(x, x, reduction="avg"),
    lambda: nn.Linear(3, 2)(torch.ones(4, 5)),
    lambda: nn.Linear(3, 2)(torch.ones(5)),
    lambda: F.linear(x, torch.ones(2, 3), torch.ones(3)),
    lambda: nn.Linear(3, 2).foo,
    lambda: setattr(nn.Linear(3, 2), "weight", torch.ones(2, 3)),
    lambda: nn.Linear(3, 2).load_state_dict({"weight": torch.ones(2, 3)}),
    lambda: nn.Module()(x),
    lambda: nn.Parameter(torch.ones(2, dtype=torch.long)),
    lambda: torch.optim.SGD([], lr=0.1),
    lambda: torch.optim.SGD(torch.ones(2), lr=0.1),
    lambda: torch.optim.SGD([torch.ones(2, requires_grad=True) * 2], lr=0.1),
    lambda: torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=-1),
    lambda: torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=0.1, nesterov=True),
    lambda: torch.optim.Adam([torch.ones(1, requires_grad=True)], betas=(0.9, 1.5)),
    lambda: torch.optim.RMSprop([torch.ones(1, requires_grad=True)], alpha=-1),
    lambda: torch.nn.init.xavier_uniform_(torch.ones(3)),
    lambda: torch.autograd.functional.hessian(lambda t: t ** 2, torch.ones(2)),
    lambda: torch.autograd.functional.vjp(lambda t: t ** 2, torch.ones(2)),
]
for i, attempt in enumerate(attempts):
    try:
        attempt()
        print(i, "no error")
    except Exception as e:
        print(i, type(e).__name__, e)
F.nll_loss(torch.ones(4, 3), torch.tensor([0, 1, 2, 5]))
