import math
import random
random.seed(1)
a = random.random()
random.seed(1)
print(a == random.random(), math.sqrt(16), math.isclose(math.sin(math.pi), 0, abs_tol=1e-9))
print(random.choice([7, 7, 7]), random.randint(5, 5), math.floor(2.7), math.inf > 1e308)
print(math.exp(1) == math.e, math.log(math.e), math.factorial(5), math.gcd(12, 18))
