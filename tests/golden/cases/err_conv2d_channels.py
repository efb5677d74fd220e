# source: original
# topic: errors
# compare: exact
# visibility: public
# An image with 3 channels fed to a Conv2d that expects 1 (checked before any maths).
import torch
import torch.nn as nn
torch.manual_seed(0)
conv = nn.Conv2d(1, 4, 3)
for bad in (torch.randn(5, 5), torch.randn(1, 1, 2, 2)):
    try:
        conv(bad)
    except RuntimeError as e:
        print(e)
conv(torch.randn(8, 3, 28, 28))
