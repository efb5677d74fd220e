# expect: refused
# goal: relative import of the runner
from . import guards
print('PWNED')
