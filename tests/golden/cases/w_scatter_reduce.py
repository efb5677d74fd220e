# source: original
# topic: warnings
# compare: exact
# visibility: public
# scatter's reduce= with a tensor src warns that it is deprecated (once per process).
import torch

index = torch.tensor([0, 0, 2])
print(torch.zeros(3).scatter(0, index, torch.tensor([1., 2., 3.]), reduce="add"))
print(torch.ones(3).scatter_(0, index, torch.tensor([2., 3., 4.]), reduce="multiply"))
print(torch.ones(3).scatter(0, index, 3.0, reduce="multiply"))
