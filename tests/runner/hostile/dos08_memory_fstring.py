# expect: limit
# goal: a huge f-string padding
x = f'{1:>{10 ** 10}}'
print('PWNED')
