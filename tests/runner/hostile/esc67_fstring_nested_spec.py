# expect: refused
# goal: dunders inside a nested format spec
x = 1
print(f'{x:{().__class__.__base__}}', 'PWNED')
