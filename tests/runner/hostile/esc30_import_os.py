# expect: refused
# goal: import os
import os
os.system('touch @MARKER@')
