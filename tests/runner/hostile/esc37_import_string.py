# expect: refused
# goal: string.Formatter traversal
import string
print(string.Formatter().get_field('0.__class__', [1], {}), 'PWNED')
