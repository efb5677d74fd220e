# expect: refused
# goal: np.f2py.os
import numpy as np
np.f2py.os.system('touch @MARKER@')
