# source: original
# topic: forward mode through a small nn.Linear + activation model: the tangent of the output
#   for a direction in input space, with the parameters requiring grad (the tangent then has
#   a grad_fn, as in PyTorch)
# compare: exact
# visibility: public
import torch
import torch.nn as nn
import torch.autograd.forward_ad as fwAD

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2), nn.Sigmoid())
x = torch.tensor([[0.5, -1.0, 2.0], [1.0, 0.0, -0.5]])
direction = torch.tensor([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
with fwAD.dual_level():
    out = model(fwAD.make_dual(x, direction))
    y, jv = fwAD.unpack_dual(out)
    print(y)
    print(jv)
    print(out)
    relu_net = nn.Sequential(nn.Linear(3, 2), nn.ReLU())
    print(fwAD.unpack_dual(relu_net(fwAD.make_dual(x, direction))).tangent)
