# source: original
# topic: errors
# compare: exact
# visibility: public
# A learner squares float32 weights in place with float_power_: PyTorch refuses, because
# float_power always computes (and returns) float64, which cannot go back into a float32
# tensor. The error ends the program.
import torch

w = torch.tensor([0.5, -1.5, 2.0])
print(torch.float_power(w, 2))
w.float_power_(2)
print(w)
