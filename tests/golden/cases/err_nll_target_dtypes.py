# source: original
# topic: class-index targets of cross_entropy and nll_loss must be int64 (or uint8); int32,
#   int16, int8 and bool targets are refused
# compare: exact
# visibility: public
import torch
import torch.nn as nn
import torch.nn.functional as F

logits = torch.tensor([[1.0, 2.0, 0.5], [0.1, 0.2, 3.0]], requires_grad=True)
for dtype in [torch.int64, torch.uint8, torch.int32, torch.int16, torch.int8, torch.bool]:
    target = torch.tensor([1, 0], dtype=dtype)
    for name, f in [("cross_entropy", F.cross_entropy), ("nll_loss", F.nll_loss),
                    ("CrossEntropyLoss", nn.CrossEntropyLoss())]:
        try:
            print(name, dtype, f(logits, target))
        except RuntimeError as e:
            print(name, dtype, type(e).__name__, e)
labels = torch.tensor([1, 2], dtype=torch.int32)
try:
    nn.CrossEntropyLoss()(logits, labels)
except RuntimeError as e:
    print(e)
loss = nn.CrossEntropyLoss()(logits, labels.long())
loss.backward()
print(loss, logits.grad)
