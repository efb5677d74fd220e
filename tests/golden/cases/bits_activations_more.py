# source: original
# topic: nn-functional
# compare: exact
# visibility: public
# hardsigmoid, hardswish, selu, celu, glu and prelu values and first derivatives printed
# to the last bit (float32 .tolist()).
import torch
import torch.nn.functional as F

x = torch.tensor([-5.0, -2.9, -1.0, -0.3, 0.1, 0.3, 1.7, 2.99, 3.5], requires_grad=True)
w = torch.tensor([0.3], requires_grad=True)
fns = [F.hardsigmoid, F.hardswish, F.selu, lambda t: F.celu(t, 0.3), lambda t: F.celu(t, 2.0),
       lambda t: F.glu(t[:8]), lambda t: F.prelu(t, w), lambda t: F.threshold(t, 0.1, 0.7)]
for f in fns:
    y = f(x)
    print(y.tolist())
    (g,) = torch.autograd.grad(y.sum(), x)
    print(g.tolist())
