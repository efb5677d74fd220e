# expect: limit
# goal: a catastrophically backtracking pattern holds the worker forever
import re
print(re.match(r'(a+)+$', 'a' * 40 + 'b'), 'PWNED')
