# expect: refused
# goal: a computed setattr replaces a function's code
def f():
    return 1
setattr(f, '__co' + 'de__', None)
print('PWNED')
