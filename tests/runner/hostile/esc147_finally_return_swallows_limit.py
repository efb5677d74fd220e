# expect: limit
# goal: a return inside finally swallows the CPU time limit and the program goes on
def spin():
    try:
        n = 0
        while True:
            n += 1
    finally:
        return n


spin()
print("PWNED: the limit was swallowed")
