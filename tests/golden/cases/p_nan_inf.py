# source: original
# topic: printing
# compare: exact
# visibility: public
# nan and inf take no part in choosing the notation or the column width.
import torch
inf, nan = float("inf"), float("nan")
print(torch.tensor([nan, 1.]))
print(torch.tensor([inf, -inf, 2.5]))
print(torch.tensor([nan]))
print(torch.tensor([inf, 1e-5]))
print(torch.tensor([nan, inf, -inf]))
print(torch.tensor([nan, 0.5, 100.]))
print(torch.tensor([[nan, 1.], [2., inf]]))
print(torch.tensor([1., 2.]) / torch.tensor([0., 0.]))
print(torch.log(torch.tensor([0., 1., -1.])))
