# expect: refused
# goal: type(type(0)) is the metaclass
T = type(type(0))
print('PWNED', T('A', (), {}))
