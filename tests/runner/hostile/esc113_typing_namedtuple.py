# expect: refused
# goal: typing.NamedTuple builds a class from text
from typing import NamedTuple
print(NamedTuple('P', [('x', int)]), 'PWNED')
