# expect: refused
# goal: an Enum built from a dict defines __array_interface__ and np.asarray reads and writes raw memory at a tensor's data_ptr()
import enum
import numpy as np
import torch

t = torch.zeros(4)
where = {"shape": (16,), "typestr": "|u1", "data": (t.data_ptr(), False), "version": 3}
Raw = enum.Enum("Raw", {"A": 1, "__array_inter" + "face__": where})
memory = np.asarray(Raw.A)
memory[3] = 63
print("PWNED", t)
