# expect: refused
# goal: globals() exposes the namespace
print(globals(), 'PWNED')
