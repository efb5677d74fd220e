# expect: limit
# goal: a huge arange
import numpy as np
x = np.arange(10 ** 11)
print('PWNED')
