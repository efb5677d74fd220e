# source: original
# topic: printing
# compare: exact
# visibility: public
# torch.conv2d, torch.conv1d and torch.max_pool2d: the functional ops under their torch names.
import torch
x = torch.arange(16.).reshape(1, 1, 4, 4).requires_grad_()
print(torch.conv2d(x, torch.ones(1, 1, 2, 2), stride=2))
print(torch.max_pool2d(x, 2, 1))
print(torch.conv1d(x[0, :, 0], torch.ones(2, 1, 3), padding=1))
