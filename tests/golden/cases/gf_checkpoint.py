# source: original
# topic: torch.utils.checkpoint.checkpoint (use_reentrant True and False) and checkpoint_sequential: the graph each records, when the piece runs again, the gradients, seeded dropout replayed
# compare: exact
# visibility: public
import torch
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

torch.manual_seed(0)
lin = torch.nn.Linear(3, 2)
x = torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, 0.0]], requires_grad=True)


def f(t):
    print("run f, grad enabled:", torch.is_grad_enabled())
    return torch.tanh(lin(t)) * 2


for reentrant in (True, False):
    x.grad = lin.weight.grad = None
    y = checkpoint(f, x, use_reentrant=reentrant)
    print(y, y.grad_fn.next_functions)
    print("backward")
    y.sum().backward()
    print(x.grad, lin.weight.grad)


def noisy(t):
    return F.dropout(t, 0.5, training=True) * t


for reentrant in (True, False):
    torch.manual_seed(3)
    w = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], requires_grad=True)
    out = checkpoint(noisy, w, use_reentrant=reentrant)
    out.sum().backward()
    print(out, w.grad)

net = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.ReLU(), torch.nn.Linear(3, 3),
                          torch.nn.Tanh(), torch.nn.Linear(3, 1))
for reentrant in (True, False):
    net.zero_grad()
    z = checkpoint_sequential(net, 2, x, use_reentrant=reentrant)
    print(z, z.grad_fn.next_functions[1][0].next_functions)
    z.sum().backward()
    print(net[0].weight.grad)
