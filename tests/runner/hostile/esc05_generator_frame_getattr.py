# expect: refused
# goal: the same walk spelled through getattr
g = (x for x in [1])
print('PWNED', getattr(g, 'gi_frame'))
