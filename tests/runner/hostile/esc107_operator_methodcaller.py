# expect: refused
# goal: operator.methodcaller calls a dunder method by name
from operator import methodcaller
print(methodcaller('__subclasses__')(int), 'PWNED')
