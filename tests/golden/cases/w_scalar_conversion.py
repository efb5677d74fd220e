# source: original
# topic: warnings
# compare: exact
# visibility: public
# Converting a tensor that requires grad to a Python number warns.
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
loss = (x * x).sum()
print(float(loss))
print(loss.item())
print(loss.detach().item())
