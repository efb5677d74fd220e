# expect: refused
# goal: string.Formatter resolves attribute chains in fields
import string
print(string.Formatter().format('{0.__class__}', 1), 'PWNED')
