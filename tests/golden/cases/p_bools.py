# source: original
# topic: printing
# compare: exact
# visibility: public
# Boolean tensors print True/False, right-aligned to the widest.
import torch
print(torch.tensor([True, False]))
print(torch.tensor([True, True]))
print(torch.tensor([[True], [False]]))
x = torch.tensor([1., 2., 3.])
print(x > 1.5, x == 2)
print(torch.tensor([False]))
print(torch.tensor([1., 2.], requires_grad=True) > 0)
