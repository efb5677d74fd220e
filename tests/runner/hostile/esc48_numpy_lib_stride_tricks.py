# expect: refused
# goal: as_strided reads past the buffer (segfault)
import numpy as np
print(np.lib.stride_tricks.as_strided(np.zeros(1), shape=(10**6,), strides=(8,)).sum())
