# expect: refused
# goal: a dunder in a lambda default
f = lambda c=().__class__.__base__: c
print('PWNED', f())
