# expect: refused
# goal: vars() exposes dicts
print(vars(), 'PWNED')
