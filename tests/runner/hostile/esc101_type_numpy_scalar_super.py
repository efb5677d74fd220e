# expect: refused,exception
# goal: super(type(x), x) on a numpy scalar skips the scalar allow-list (tofile, data, dumps)
import numpy as np
x = np.float64(1.5)
s = super(type(x), x)
print(s.dumps(), s.data, 'PWNED')
