# expect: refused
# goal: the Enum metaclass from type() of an Enum class
from enum import Enum
class C(Enum):
    A = 1
print(type(C)('D', {}), 'PWNED')
