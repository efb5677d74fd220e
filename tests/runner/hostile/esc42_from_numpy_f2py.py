# expect: refused
# goal: from numpy import f2py
from numpy import f2py
f2py.os.system('touch @MARKER@')
