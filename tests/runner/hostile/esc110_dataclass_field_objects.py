# expect: refused
# goal: a dataclass Field object's attributes lead to the class's internals
from dataclasses import dataclass, fields
@dataclass
class P:
    x: int = 0
print(fields(P)[0].default_factory, 'PWNED')
