# expect: refused
# goal: writing strides is an out-of-bounds primitive
import numpy as np
a = np.zeros(2)
a.strides = (0,)
print('PWNED')
