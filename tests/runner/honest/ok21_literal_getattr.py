import torch
import torch.nn as nn
lin = nn.Linear(3, 1)
print(tuple(getattr(lin, "weight").shape), getattr(lin, "nosuch", "default"))


class Box:
    pass


box = Box()
setattr(box, "k", 1)
print(box.k, hasattr(box, "k"), hasattr(box, "missing"))
