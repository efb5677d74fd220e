# expect: refused
# goal: rebinding a guard hook
_sbx_ga = lambda o, n: 1
print('PWNED')
