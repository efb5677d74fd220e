# source: original
# topic: grad-fn
# compare: exact
# visibility: public
# Module backward hooks: register_full_backward_hook sees (grad_input, grad_output) and may
# replace grad_input; register_full_backward_pre_hook sees grad_output first. Hooked modules
# route inputs and outputs through BackwardHookFunctionBackward nodes; with no input needing
# grad the hook fires on the output gradients, with a warning.
import torch
import torch.nn as nn

lin = nn.Linear(3, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, -1.0, 0.5], [2.0, 0.0, -0.5]]))
    lin.bias.zero_()


def show(module, grad_input, grad_output):
    print("hook", type(module).__name__, grad_input, grad_output)


handle = lin.register_full_backward_hook(show)
x = torch.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
out = lin(x)
print(out)
print(out.grad_fn.next_functions)
print(out.grad_fn.next_functions[0][0].next_functions)
out.sum().backward()
print(x.grad)
out = lin(torch.tensor([[1.0, 2.0, 3.0]]))
out.sum().backward()
handle.remove()
print(lin(x).grad_fn)

lin.register_full_backward_hook(lambda m, gi, go: (gi[0] * 10,))
x.grad = None
lin(x).sum().backward()
print(x.grad)

seq = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
with torch.no_grad():
    seq[0].weight.copy_(torch.tensor([[1.0, 0.0], [0.0, -1.0]]))
    seq[0].bias.zero_()
seq.register_full_backward_pre_hook(lambda m, go: print("pre", go))
seq[1].register_full_backward_pre_hook(lambda m, go: (go[0] * 3,))
seq[1].register_full_backward_hook(lambda m, gi, go: print("relu", gi, go))
z = torch.tensor([[1.0, -1.0]], requires_grad=True)
seq(z).sum().backward()
print(z.grad)


class Two(nn.Module):
    def forward(self, a, scale, b):
        return a * scale, b + 1


two = Two()
two.register_full_backward_hook(show)
a = torch.tensor([1.0, 2.0], requires_grad=True)
p, q = two(a, 3.0, torch.tensor([5.0]))
print(p, q)
(p.sum() * 2).backward()
lin2 = nn.Linear(1, 1)
lin2.register_full_backward_hook(lambda m, gi, go: (torch.ones(1),))
try:
    lin2(torch.ones(1, 1)).sum().backward()
except RuntimeError as e:
    print(e)
