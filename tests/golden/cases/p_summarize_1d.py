# source: original
# topic: printing
# compare: exact
# visibility: public
# Past 1000 elements only the first and last 3 of each dimension are shown.
import torch
print(torch.arange(1000.))
print(torch.arange(1001.))
print(torch.arange(2000))
print(torch.arange(5000.) / 3)
print(torch.arange(1001.) * 1e-6)
print(torch.ones(1001, dtype=torch.bool))
print(torch.arange(1001.).requires_grad_())
