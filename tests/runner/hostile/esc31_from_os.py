# expect: refused
# goal: from os import system
from os import system
system('touch @MARKER@')
