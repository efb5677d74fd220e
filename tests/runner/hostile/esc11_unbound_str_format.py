# expect: refused
# goal: str.format reached through the class
print(str.format('{0.__class__.__mro__}', 1), 'PWNED')
