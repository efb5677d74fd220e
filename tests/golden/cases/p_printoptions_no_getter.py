# source: original
# topic: printing
# compare: exact
# visibility: public
# PyTorch 2.13 has set_printoptions but no get_printoptions: a learner who looks for it
# gets AttributeError, and the options set before still apply.
import torch
torch.set_printoptions(precision=2)
print(torch.tensor([3.14159]))
try:
    torch.get_printoptions()
except AttributeError as e:
    print("AttributeError:", e)
print(hasattr(torch, "get_printoptions"), hasattr(torch, "set_printoptions"))
