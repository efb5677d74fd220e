# expect: refused
# goal: an Enum with numpy's float64 as its mixin type is the program's own class, so its members would expose numpy's tofile and data
import enum
import numpy as np

Fake = enum.Enum("Fake", {"A": 1.5}, type=np.float64)
member = Fake.A
print("PWNED", member.data)
member.tofile("@MARKER@")
