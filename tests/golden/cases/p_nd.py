# source: original
# topic: printing
# compare: exact
# visibility: public
# Higher dimensions: one more bracket and one more blank line per dimension.
import torch
print(torch.arange(12.).reshape(2, 2, 3))
print(torch.arange(16.).reshape(2, 2, 2, 2))
print(torch.arange(8).reshape(2, 1, 2, 1, 2))
print(torch.zeros(1, 1, 1))
print(torch.ones(2, 1, 3) * 0.5)
print(torch.arange(6.).reshape(1, 2, 3).requires_grad_())
