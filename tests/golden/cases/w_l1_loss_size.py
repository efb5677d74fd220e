# source: original
# topic: L1Loss with a target of another size warns (as MSELoss does) and broadcasts
# compare: exact
# visibility: public
import torch
import torch.nn as nn

pred = torch.tensor([[1.0], [2.0], [4.0]], requires_grad=True)
target = torch.tensor([1.5, 2.0, 3.0])
loss = nn.L1Loss()(pred, target)
print(loss)
loss.backward()
print(pred.grad)
print(nn.L1Loss(reduction='sum')(target, pred))
print(nn.L1Loss()(pred.squeeze(1), target))
