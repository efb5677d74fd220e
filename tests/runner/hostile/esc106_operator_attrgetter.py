# expect: refused
# goal: operator.attrgetter reads a dunder chain the guards never see
import operator
print(operator.attrgetter('__class__.__base__')(()), 'PWNED')
