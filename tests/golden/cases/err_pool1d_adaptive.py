# source: original
# topic: errors
# compare: exact
# visibility: public
# Pooling mistakes: 1-D pools on the wrong rank, adaptive pools given bad sizes.
import torch
import torch.nn as nn
import torch.nn.functional as F
calls = (lambda: F.max_pool1d(torch.ones(8), 2),
         lambda: F.avg_pool1d(torch.ones(2, 3, 4, 8), 2),
         lambda: F.max_pool1d(torch.ones(1, 3), 5),
         lambda: F.max_pool1d(torch.ones(1, 1, 6), 2, padding=2),
         lambda: F.avg_pool1d(torch.ones(1, 1, 3), 5),
         lambda: F.max_pool1d(torch.ones(1, 6), (2, 2)),
         lambda: F.adaptive_avg_pool2d(torch.ones(4, 4), 2),
         lambda: F.adaptive_max_pool2d(torch.ones(4), 2),
         lambda: F.adaptive_avg_pool2d(torch.ones(1, 2, 0, 5), 2),
         lambda: F.adaptive_avg_pool2d(torch.ones(1, 2, 5, 5), -1),
         lambda: F.adaptive_avg_pool1d(torch.ones(2, 5), (2, 3)),
         lambda: F.adaptive_avg_pool2d(torch.arange(16).reshape(1, 4, 4), 2),
         lambda: nn.AdaptiveAvgPool2d((2, 2))(torch.ones(4)))
for call in calls:
    try:
        call()
    except (RuntimeError, ValueError, NotImplementedError) as e:
        print(type(e).__name__, e)
print(F.adaptive_avg_pool2d(torch.ones(1, 0, 5, 5), 2).shape)
nn.AdaptiveMaxPool1d(2)(torch.ones(5))
