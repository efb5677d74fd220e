# source: original
# topic: nll_loss and cross_entropy target shapes: PyTorch checks the batch size before the
#   target's rank, a 1-D input wants a one-element target, and a target of the input's shape
#   is read as class probabilities whatever its dtype
# compare: exact
# visibility: public
import torch
import torch.nn as nn
import torch.nn.functional as F

shapes = [((4, 3), (2, 2)), ((4, 3), (4, 2)), ((4, 3), (3,)), ((4, 3), ()), ((3,), (2,)),
          ((3,), (1,)), ((3,), ()), ((3,), (1, 1)), ((), ()), ((0, 3), ()), ((2, 3, 4), ()),
          ((2, 3, 4), (3, 4)), ((2, 3, 4), (2, 5))]
for input_shape, target_shape in shapes:
    for name, f in [("nll_loss", F.nll_loss), ("cross_entropy", F.cross_entropy)]:
        x = torch.arange(float(torch.Size(input_shape).numel())).reshape(input_shape) / 10
        target = torch.zeros(target_shape, dtype=torch.long)
        try:
            print(name, input_shape, target_shape, f(x, target))
        except (RuntimeError, ValueError, IndexError) as e:
            print(name, input_shape, target_shape, type(e).__name__, e)

for target in [torch.zeros(3, dtype=torch.long), torch.zeros(3, dtype=torch.bool)]:
    try:
        F.cross_entropy(torch.ones(3), target)
    except RuntimeError as e:
        print(e)
logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 0.3]], requires_grad=True)
nn.CrossEntropyLoss()(logits, torch.tensor([[0, 1], [1, 1]]))
