# expect: refused
# goal: abc's class machinery (register) on a builtin class
from abc import ABC
ABC.register(int)
print('PWNED')
