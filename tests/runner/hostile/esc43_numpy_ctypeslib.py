# expect: refused
# goal: np.ctypeslib.ctypes
import numpy as np
np.ctypeslib.ctypes.CDLL(None).system(b'touch @MARKER@')
