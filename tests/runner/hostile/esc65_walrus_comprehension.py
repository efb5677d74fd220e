# expect: refused
# goal: a walrus in a comprehension
print([(y := ().__class__.__base__) for i in [1]], 'PWNED')
