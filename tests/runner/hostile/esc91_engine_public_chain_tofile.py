# expect: refused
# goal: reach numpy file I/O through a chain of public engine attributes
import torch
x = torch.ones(2, requires_grad=True)
y = (x * 2).sum()
leaf = y.grad_fn.next_functions[0][0].next_functions[0][0]
leaf.variable.detach().numpy().tofile('@MARKER@')
