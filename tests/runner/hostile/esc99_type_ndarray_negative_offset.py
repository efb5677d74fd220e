# expect: refused
# goal: read process memory through the real ndarray class, a negative offset and id()
import numpy as np
nd = type(np.zeros(1))
blob = b"gradstep" * 4
arr = nd((32,), np.uint8, buffer=blob, offset=-32)
word = sum(int(v) << (8 * i) for i, v in enumerate(arr.tolist()[8:16]))
if word == id(type(blob)):
    print("PWNED: read the header of a bytes object at", hex(id(blob)))
