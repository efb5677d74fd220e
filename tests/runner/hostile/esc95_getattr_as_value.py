# expect: refused
# goal: getattr passed around as a value escapes the literal-name check
g = getattr
t = g((), '__cl' + 'ass__')
print(g(t, '__ba' + 'se__'), 'PWNED')
