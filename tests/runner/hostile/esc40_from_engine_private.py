# expect: refused
# goal: private names of the engine
from torch import _events
print('PWNED', _events)
