# expect: refused
# goal: type.mro() reaches object
print(int.mro()[-1], 'PWNED')
