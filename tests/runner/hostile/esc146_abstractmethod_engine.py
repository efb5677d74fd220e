# expect: refused
# goal: abc.abstractmethod writes an attribute onto an engine function
import abc
import torch

abc.abstractmethod(torch.Tensor.backward)
print("PWNED")
