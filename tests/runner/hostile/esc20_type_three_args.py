# expect: refused
# goal: type(name, bases, dict) builds a class with dunders
A = type('A', (), {'x': 1})
print('PWNED', A)
