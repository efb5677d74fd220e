# source: original
# topic: no-grad
# compare: exact
# visibility: public
# Grad-mode objects and nn.Parameter's class print as PyTorch's.
import torch
print(torch.no_grad())
print(torch.enable_grad())
print(torch.set_grad_enabled(True))
print(torch.inference_mode())
p = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
print(type(p))
print(type(p).__name__, isinstance(p, torch.Tensor))
