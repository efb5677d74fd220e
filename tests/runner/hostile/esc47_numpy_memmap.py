# expect: refused
# goal: np.memmap maps a file
import numpy as np
m = np.memmap('@MARKER@', mode='w+', shape=(4,))
