# source: original
# topic: warnings
# compare: exact
# visibility: public
# torch.tensor(a_tensor) warns at each line that does it; x.T on other than 2-D warns once per
# process (and once more, in other words, for 0-d).
import torch

x = torch.tensor([1.0, 2.0])
y = torch.tensor(x)
print(y)
w = torch.tensor([1.0, 2.0], requires_grad=True)
z = torch.tensor(w)
print(z, z.requires_grad)
print(torch.as_tensor(x) is x)
a = torch.ones(3)
print(a.T)
print(a.T, torch.ones(2, 3, 4).T.shape, torch.ones(2, 3).T.shape)
print(torch.tensor(1.5).T)
v = torch.arange(3.0, requires_grad=True)
print(v.T)
