# expect: refused
# goal: AttributeError.name and friends
try:
    (1).nosuch
except AttributeError as e:
    print('PWNED', e.name)
