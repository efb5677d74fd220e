# source: original
# topic: printing
# compare: exact
# visibility: public
# Fixed point with 4 decimals; every column padded to the widest element.
import torch
print(torch.tensor([1.5, 1500.]))
print(torch.tensor([-1.5, 2.25]))
print(torch.tensor([0.1234567]))
print(torch.tensor([0.00015, 0.1]))
print(torch.tensor([999.99999, 1.0]))
print(torch.tensor([-0.5, 10.25, -100.125]))
print(torch.tensor([1 / 3, 2 / 3, 1.0]))
print(torch.tensor([0.12345, 0.12355]))
print(torch.tensor([[0.5, -0.25], [12.5, 3.75]]))
