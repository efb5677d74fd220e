# source: original
# topic: printing
# compare: exact
# visibility: public
# Scientific notation takes over when magnitudes span more than 1000x, pass 1e8 or drop below
# 1e-4.
import torch
print(torch.tensor([0.1, 1.0, 1e-4]))
print(torch.tensor([1e8, 1.0]))
print(torch.tensor([1e9]))
print(torch.tensor([1.5, 1500.]))
print(torch.tensor([1.5, 1501.]))
print(torch.tensor([1e-5]))
print(torch.tensor([1e-4]))
print(torch.tensor([9.9e-5, 1.0]))
print(torch.tensor([123456789.]))
print(torch.tensor([99999999.]))
print(torch.tensor([-1e-5, 2.0]))
print(torch.tensor([1e-30, 1e30]))
print(torch.tensor([1e-300, 1e300], dtype=torch.float64))
print(torch.tensor([0.0, 1e-5, 0.0]))
print(torch.tensor([1e10, 1.0]))
