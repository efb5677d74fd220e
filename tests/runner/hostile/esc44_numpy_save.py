# expect: refused
# goal: np.save writes a file
import numpy as np
np.save('@MARKER@', np.zeros(2))
