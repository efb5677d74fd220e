# source: original
# topic: printing
# compare: exact
# visibility: public
# linewidth moves the wrapping point of rows and of the autograd suffix.
import torch
torch.set_printoptions(linewidth=30)
print(torch.arange(12))
print(torch.arange(12.).reshape(2, 6))
print(torch.tensor([1.0, 2.0, 3.0], requires_grad=True) * 2)
torch.set_printoptions(linewidth=200)
print(torch.arange(40) * 3)
torch.set_printoptions(linewidth=10)
print(torch.arange(3.))
torch.set_printoptions(profile="default")
print(torch.arange(40) * 3)
