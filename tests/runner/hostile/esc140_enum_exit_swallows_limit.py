# expect: refused,limit
# goal: an Enum-built __exit__ swallows the CPU time limit and the program goes on
import enum


def enter(self):
    return self


def leave(self, *exc):
    return True


Quiet = enum.Enum("Quiet", {"A": 1, "__ent" + "er__": enter, "__ex" + "it__": leave})
with Quiet.A:
    n = 0
    while True:
        n += 1
print("PWNED: the limit was swallowed")
