# source: original
# topic: errors
# compare: exact
# visibility: public
# std/var of an integer tensor (torch.arange gives int64), mean with an integer dtype=, and a
# Python int that does not fit a narrow integer tensor's dtype (it wraps around, as in C).
import torch
import torch.nn.functional as F

attempts = [
    lambda: torch.arange(5).std(),
    lambda: torch.arange(5).var(0),
    lambda: torch.std(torch.tensor([True, False])),
    lambda: torch.arange(4.0).std(unbiased=False),
    lambda: torch.ones(3).mean(dtype=torch.long),
    lambda: torch.ones(3, dtype=torch.long).mean(),
    lambda: torch.ones(3, dtype=torch.long).mean(0, dtype=torch.float64),
]
for attempt in attempts:
    try:
        print(attempt())
    except RuntimeError as e:
        print("RuntimeError", e)
img = torch.tensor([0, 3, 250], dtype=torch.uint8)
print(img - 2, img + 10, img * 2)
small = torch.tensor([1, -1, 100], dtype=torch.int8)
print(small + 200, small * 300, small - 1000)
print(torch.tensor(3, dtype=torch.int8) + 200, torch.tensor([7], dtype=torch.int16) * 40000)
print(F.logsigmoid.__name__, [f.__name__ for f in (F.relu, F.softplus, F.logsigmoid, F.threshold)])
