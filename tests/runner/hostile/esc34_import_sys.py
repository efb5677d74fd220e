# expect: refused
# goal: sys.modules
import sys
sys.modules['os'].system('touch @MARKER@')
