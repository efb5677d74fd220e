# source: original
# topic: printing
# compare: exact
# visibility: public
# Negative zero keeps its sign, and counts as zero when the notation is chosen.
import torch
print(torch.tensor([-0.0]))
print(torch.tensor([-0.0, 0.5]))
print(torch.tensor([-0.0, 1.0]))
print(torch.tensor([0.0, -0.0]))
print(-torch.zeros(3))
print(torch.tensor([-0.0, 1e-5]))
print(torch.tensor([-1e-6, 1.0]))
print(torch.tensor([-0.00001, 0.5]) * 0)
