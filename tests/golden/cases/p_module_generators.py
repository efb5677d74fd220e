# source: original
# topic: printing a module's parameter and buffer iterators (generators named after the method)
# compare: exact
# visibility: public
import torch
import torch.nn as nn
m = nn.Sequential(nn.Linear(2, 1))
m.register_buffer("b", torch.ones(1))
print(m.parameters())
print(m.named_parameters())
print(m.buffers())
print(m.named_buffers())
print(m.children())
print(m.named_children())
print(m.modules())
print(m.named_modules())
print(type(m.parameters()).__name__)
