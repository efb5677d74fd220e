# expect: refused
# goal: a private name inside a class body
class A(Exception):
    __x = 1
print('PWNED')
