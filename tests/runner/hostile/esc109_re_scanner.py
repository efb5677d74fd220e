# expect: refused
# goal: an re.Pattern attribute outside the listed ones
import re
p = re.compile('a')
print(p.scanner('a'), 'PWNED')
