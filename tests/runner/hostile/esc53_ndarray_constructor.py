# expect: refused
# goal: np.ndarray(buffer=...) constructor
import numpy as np
print(np.ndarray((4,), buffer=b'abcdefgh' * 4), 'PWNED')
