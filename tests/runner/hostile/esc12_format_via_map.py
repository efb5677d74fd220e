# expect: refused
# goal: str.format passed around as a function
f = str.format
print(list(map(f, ['{0.__init__.__globals__}'], [1])), 'PWNED')
