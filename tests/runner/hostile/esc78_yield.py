# expect: refused
# goal: a generator function keeps a frame
def g():
    yield 1
print('PWNED', list(g()))
