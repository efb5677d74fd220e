# expect: refused
# goal: random's hidden Random instance
import random
print(random.Random, 'PWNED')
