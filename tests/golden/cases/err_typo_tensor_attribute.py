# source: original
# topic: a misspelt tensor method: Python 3.11 suggests a name from dir(tensor)
# compare: exact
# visibility: public
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x ** 2).sum()
print(hasattr(x, "gard"), hasattr(x, "grad_fun"), hasattr(x, "summ"), hasattr(x, "zero_grad"))
y.backwards()
