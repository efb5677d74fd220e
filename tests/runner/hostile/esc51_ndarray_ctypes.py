# expect: refused
# goal: ndarray.ctypes reaches ctypes
import numpy as np
print(np.zeros(2).ctypes.data, 'PWNED')
