# expect: limit
# goal: math.factorial of a huge number
import math
print(math.factorial(10 ** 8) > 0)
