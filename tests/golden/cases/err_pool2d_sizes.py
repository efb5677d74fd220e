# source: original
# topic: errors
# compare: exact
# visibility: public
# Pooling mistakes: a 2-D input, too much padding, and a window larger than the image.
import torch
import torch.nn as nn
import torch.nn.functional as F
for call in (lambda: F.max_pool2d(torch.ones(4, 4), 2),
             lambda: F.max_pool2d(torch.ones(1, 1, 4, 4), 2, padding=2),
             lambda: F.avg_pool2d(torch.ones(1, 1, 4, 4), 3, padding=2)):
    try:
        call()
    except RuntimeError as e:
        print(e)
nn.MaxPool2d(3)(torch.ones(1, 2, 2, 2))
