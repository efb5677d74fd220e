# source: original
# topic: device
# compare: exact
# visibility: public
# torch.set_default_device / get_default_device on a CPU-only build.
import torch

print(repr(torch.get_default_device()))
torch.set_default_device("cpu")
print(torch.get_default_device(), torch.zeros(2).device)
torch.set_default_device(torch.device("cpu"))
print(torch.randn(size=(2,)).device)
torch.set_default_device(None)
print(repr(torch.get_default_device()))
torch.set_default_device("cuda")
try:
    torch.get_default_device()
except AssertionError as e:
    print("AssertionError", e)
try:
    torch.ones(3)
except AssertionError as e:
    print("AssertionError", e)
torch.set_default_device("cpu")
print(torch.ones(2))
try:
    torch.set_default_device("gpu")
except RuntimeError as e:
    print("RuntimeError", e)
