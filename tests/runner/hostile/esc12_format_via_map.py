# expect: refused
# goal: str.format passed around as a function
f = str.format
print(list(map(f, ['{0.real.__class__}'], [1])), 'PWNED')
