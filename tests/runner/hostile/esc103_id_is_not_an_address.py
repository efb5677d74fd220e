# expect: exception
# goal: id() hands out object addresses (the escape's second half)
import numpy as np
blob = b"gradstep"
a = np.zeros(3)
ids = [id(blob), id(a), id(print), id(np)]
if max(ids) > 2 ** 32:
    print('PWNED: an address', hex(max(ids)))
if hash(print) > 2 ** 28 or hash(np) > 2 ** 28:
    print('PWNED: an address through hash()')
assert id(blob) == id(blob) and id(blob) != id(a)
raise ValueError("ids are per-run numbers")
