# source: original
# topic: nn.Dropout1d/2d/3d and F.dropout1d/2d/3d: whole channels dropped (one draw per
#   sample and channel from the seeded generator), MulBackward0, gradients, eval mode, the
#   rank checks and warnings, and how the modules print
# compare: exact
# visibility: public
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.ones(2, 4, 2, 2, requires_grad=True)
drop = nn.Dropout2d(0.5)
print(drop)
y = drop(x)
print(y[:, :, 0, 0], y.grad_fn)
y.sum().backward()
print(x.grad[:, :, 0, 0])
print(F.dropout1d(torch.ones(3, 5), 0.4))
print(F.dropout1d(torch.ones(2, 3, 2), 0.4, training=True))
print(nn.Dropout3d(0.25)(torch.ones(2, 3, 1, 1, 2)).flatten(1))
print(F.dropout3d(torch.ones(3, 1, 1, 2), 0.5).flatten())
print(F.dropout2d(torch.ones(2, 3, 4), 0.5))
print(F.dropout2d(torch.ones(2, 3), 0.5))
print(F.dropout2d(torch.ones(2, 3), 1.0), F.dropout2d(torch.ones(2, 3), 0.0))
drop.eval()
print(drop(x) is x, nn.Dropout1d(p=0.1, inplace=True))
for call in [lambda: F.dropout1d(torch.ones(2), 0.5), lambda: nn.Dropout2d(1.5),
             lambda: F.dropout3d(torch.ones(2, 3, 4, 5), -0.1),
             lambda: F.dropout2d(torch.ones(3), 0.5)]:
    try:
        print(call())
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, e)
