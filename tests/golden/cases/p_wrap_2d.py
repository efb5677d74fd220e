# source: original
# topic: printing
# compare: exact
# visibility: public
# Matrix rows that are too long for a line wrap inside the row.
import torch
print(torch.arange(100.).reshape(10, 10) * 1.5)
print(torch.arange(40.).reshape(2, 20) / 3)
print(torch.arange(30).reshape(2, 15) * 1000)
print(torch.eye(3))
print(torch.ones(2, 10) * 0.25)
