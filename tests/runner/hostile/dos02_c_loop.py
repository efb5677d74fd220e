# expect: limit
# goal: a C loop never checks for signals
print(sum(range(10 ** 12)))
