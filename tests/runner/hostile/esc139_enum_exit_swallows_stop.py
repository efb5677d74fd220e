# expect: refused
# goal: an Enum built from a dict defines __exit__ returning True and swallows the sandbox's SecurityError
import enum


def enter(self):
    return self


def leave(self, *exc):
    return True


Quiet = enum.Enum("Quiet", {"A": 1, "__ent" + "er__": enter, "__ex" + "it__": leave})
with Quiet.A:
    getattr(print, "__glo" + "bals__")
print("PWNED: the refusal was swallowed")
