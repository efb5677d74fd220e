# expect: refused
# goal: hasattr with a dunder
print(hasattr(1, '__base__'), 'PWNED')
