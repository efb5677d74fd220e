# expect: refused
# goal: keywords in a class statement
class A(**{'metaclass': type}):
    pass
print('PWNED')
