# expect: refused
# goal: the function class from type(), to build a function from someone's code object
def f():
    return 1
FunctionType = type(f)
print(FunctionType(f, {}), 'PWNED')
