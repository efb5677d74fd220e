# expect: refused
# goal: dataclasses.dataclass rewrites an engine class (nn.Linear's __init__ and __repr__)
import dataclasses
import torch.nn as nn

dataclasses.dataclass(nn.Linear)
print("PWNED", nn.Linear)
