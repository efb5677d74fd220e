# expect: refused
# goal: np.loadtxt reads a file
import numpy as np
print(np.loadtxt('@SECRET_FILE@', dtype=str))
