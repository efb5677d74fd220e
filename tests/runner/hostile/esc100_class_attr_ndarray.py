# expect: refused
# goal: the real ndarray class through __class__, then a raw buffer at an offset
import numpy as np
nd = np.zeros(1).__class__
blob = b"gradstep" * 4
print(nd((32,), np.uint8, buffer=blob, offset=-32), 'PWNED')
