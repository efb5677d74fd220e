# expect: refused
# goal: a dunder in a lambda default
f = lambda c=().__class__: c
print('PWNED', f())
