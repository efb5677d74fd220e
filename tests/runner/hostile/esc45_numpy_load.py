# expect: refused
# goal: np.load reads a file
import numpy as np
print(np.load('@SECRET_FILE@', allow_pickle=True))
