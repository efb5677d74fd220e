# source: original
# topic: a size that is not whole numbers (torch.zeros(n / 2)) in PyTorch's argument-parser words
# compare: exact
# visibility: public
import torch
import numpy as np
n = 5
tries = [
    lambda: torch.zeros(n / 2), lambda: torch.ones(3.0), lambda: torch.rand(4 / 2),
    lambda: torch.randn(2.5), lambda: torch.empty(1.5), lambda: torch.zeros(True),
    lambda: torch.zeros("3"), lambda: torch.ones(np.float64(2)), lambda: torch.zeros(2, 3, 1.0),
    lambda: torch.rand(2, 3.0), lambda: torch.zeros((2.5,)), lambda: torch.zeros((2, 2.5)),
    lambda: torch.zeros([2, 2.5]), lambda: torch.randn([2.0, 1]), lambda: torch.full(2.0, 1.0),
    lambda: torch.full((2.0,), 1.0), lambda: torch.zeros(2, True).shape,
    lambda: torch.zeros(np.int64(2)), lambda: torch.zeros(torch.tensor(2)),
    lambda: torch.ones([np.int32(2), 3]).shape, lambda: torch.zeros(n // 2),
]
for f in tries:
    try:
        print(f())
    except TypeError as e:
        print(e)
torch.zeros(n / 2, requires_grad=True)
