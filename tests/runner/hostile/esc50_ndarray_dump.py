# expect: refused
# goal: ndarray.dump pickles to a file
import numpy as np
np.zeros(2).dump('@MARKER@')
