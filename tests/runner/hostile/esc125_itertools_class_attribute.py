# expect: refused
# goal: the class of an itertools.tee object and its attributes
import itertools
first, second = itertools.tee([1, 2])
copier = getattr(type(first), 'co' + 'py')
print(copier(first), 'PWNED')
