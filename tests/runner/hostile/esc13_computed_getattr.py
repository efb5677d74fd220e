# expect: refused
# goal: getattr with a computed dunder name
def f():
    return 1
print(getattr(f, '__glo' + 'bals__'), 'PWNED')
