# expect: refused
# goal: Enum(module="torch", type=np.float64) passes for an engine class whose members expose numpy's tofile
import enum
import numpy as np

Fake = enum.Enum("Fake", {"A": 1.5}, module="torch", type=np.float64)
member = Fake.A
print("PWNED", member.data)
member.tofile("@MARKER@")
