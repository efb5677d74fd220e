# expect: refused
# goal: the dtype class from type() to build a structured dtype with object fields at offsets
import numpy as np
D = type(np.zeros(1).dtype)
print(D({'names': ['a'], 'formats': ['O'], 'offsets': [0]}), 'PWNED')
