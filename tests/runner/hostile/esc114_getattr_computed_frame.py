# expect: refused
# goal: a computed getattr reaches a generator's frame
g = (i for i in range(3))
print(getattr(g, 'gi_' + 'frame'), 'PWNED')
