# expect: refused
# goal: fullwidth module name normalises to os
import ｏｓ
ｏｓ.system('touch @MARKER@')
