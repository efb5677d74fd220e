# expect: refused
# goal: an Enum's private member map
from enum import Enum
class C(Enum):
    A = 1
print(C._member_map_, 'PWNED')
