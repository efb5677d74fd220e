# expect: limit
# goal: a huge list
x = [0] * (10 ** 10)
print('PWNED')
