# expect: limit
# goal: a huge %-format padding
x = '%0*d' % (10 ** 10, 1)
print('PWNED')
