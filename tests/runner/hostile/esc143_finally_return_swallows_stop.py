# expect: refused
# goal: a return inside finally swallows the sandbox's SecurityError and the program goes on
def quiet():
    try:
        getattr(print, "__glo" + "bals__")
    finally:
        return 1


quiet()
print("PWNED: the refusal was swallowed")
