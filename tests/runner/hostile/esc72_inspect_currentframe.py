# expect: refused
# goal: inspect beyond signature
import inspect
print(inspect.currentframe().f_back, 'PWNED')
