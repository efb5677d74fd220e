# expect: limit
# goal: a huge array
import numpy as np
x = np.ones((10 ** 5, 10 ** 5))
print('PWNED')
