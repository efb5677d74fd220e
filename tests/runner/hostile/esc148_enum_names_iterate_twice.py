# expect: refused,exception
# goal: an Enum names item that iterates to a public name when checked and to __exit__ when used
import enum


class Shifty:
    def __init__(self):
        self.n = 0

    def __iter__(self):
        self.n += 1
        return iter(["A", 1] if self.n == 1 else ["__ex" + "it__", 2])


E = enum.Enum("E", [Shifty()])
if len(list(E)) == 1:
    raise ValueError("the names were read once")
print("PWNED", list(E))
