# expect: refused
# goal: dunders inside f-string fields
print(f'{().__class__.__mro__}', 'PWNED')
