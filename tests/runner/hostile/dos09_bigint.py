# expect: limit
# goal: a big integer power
x = 10 ** (10 ** 9)
print('PWNED')
