# expect: refused
# goal: super() with a numpy base class reaches what the scalar allow-list denies
import numpy as np
x = np.float64(1.5)
s = super(np.float64, x)
print(s.tofile, 'PWNED')
