# expect: limit
# goal: a huge string
x = 'a' * (10 ** 10)
print('PWNED')
