# expect: refused
# goal: a metaclass runs code at class creation
class M(type):
    pass
class A(metaclass=M):
    pass
print('PWNED')
