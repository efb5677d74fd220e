# source: original
# topic: errors
# compare: exact
# visibility: public
# torch.bmm wants two 3-D tensors whose batch and inner sizes agree.
import torch
for a, b in [((2, 2), (2, 2, 2)), ((2, 2, 2), (2, 2)), ((2, 2, 3), (2, 2, 2)),
             ((2, 2, 3), (3, 3, 2))]:
    try:
        torch.bmm(torch.ones(*a), torch.ones(*b))
    except Exception as e:
        print(type(e).__name__, e)
x = torch.ones(2, 2, 3, requires_grad=True)
y = torch.bmm(x, torch.ones(2, 3, 1))
print(y.shape, y.grad_fn)
