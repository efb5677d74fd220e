# source: original
# topic: warnings
# compare: exact
# visibility: public
# nn's warnings: a broadcasting MSE target, softmax without dim, the legacy size_average flag.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor([[1.0, 2.0, 3.0], [0.5, 0.0, -1.0]], requires_grad=True)
print(F.mse_loss(x, torch.tensor([1.0, 0.0, 1.0])))
print(F.softmax(x))
print(nn.LogSoftmax()(torch.tensor([1.0, 2.0])))
print(nn.MSELoss(size_average=False).reduction)
