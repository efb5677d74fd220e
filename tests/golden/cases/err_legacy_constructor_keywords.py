# source: original
# topic: the legacy constructors torch.Tensor(...) / torch.FloatTensor(...) take no keyword but
#   device: requires_grad=True there is PyTorch's 'invalid combination of arguments' TypeError
# compare: exact
# visibility: public
import numpy as np
import torch
for args, kw in [(([1, 2],), dict(requires_grad=True)), ((2, 3), dict(requires_grad=True)),
                 (([1.0],), dict(dtype=torch.float64, requires_grad=False)),
                 ((torch.ones(1),), dict(requires_grad=True)), ((), dict(requires_grad=True)),
                 (((2, 3),), dict(device='cpu', requires_grad=True)), (([1.0],), dict(foo=1)),
                 ((), dict(requires_grad=True, dtype=torch.float32)),
                 ((np.ones(2),), dict(requires_grad=True)),
                 ((torch.Size([2]),), dict(requires_grad=True)), ((2.5,), dict(requires_grad=True)),
                 ((None,), dict(requires_grad=True)),
                 (([1.0],), dict(device=torch.device('cpu'), requires_grad=True))]:
    try:
        print(torch.Tensor(*args, **kw))
    except TypeError as e:
        print(e)
for f in [torch.FloatTensor, torch.LongTensor, torch.DoubleTensor]:
    try:
        f([1, 2], requires_grad=True)
    except TypeError as e:
        print(e)
print(torch.Tensor([1.0], device='cpu'), torch.FloatTensor(2, device='cpu').shape)
t = torch.Tensor([1.0, 2.0])
t.requires_grad_()
print(t)
torch.Tensor([1.0, 2.0], requires_grad=True)
