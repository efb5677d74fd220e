# source: original
# topic: BCELoss with integer (or float64) labels: the target must be of the input dtype
# compare: exact
# visibility: public
import torch
import torch.nn as nn
import torch.nn.functional as F
x = torch.full((4, 1), 0.5, requires_grad=True)
for t in (torch.ones(4, 1).long(), torch.ones(4, 1).double(), torch.ones(4, 1, dtype=torch.int32),
          torch.ones(4, 1, dtype=torch.bool), torch.ones(4, 1)):
    try:
        print(F.binary_cross_entropy(x, t))
    except RuntimeError as e:
        print(e)
print(F.binary_cross_entropy(x.double(), torch.ones(4, 1, dtype=torch.float64)))
try:
    F.binary_cross_entropy(x, torch.ones(4).long())
except ValueError as e:
    print(e)
crit = nn.BCELoss()
labels = torch.tensor([[1], [0], [1], [1]])
loss = crit(torch.sigmoid(x), labels)
