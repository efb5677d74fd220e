# expect: refused
# goal: classes may only subclass nn.Module, Function, exceptions
class A(int):
    pass
print('PWNED', A(1))
