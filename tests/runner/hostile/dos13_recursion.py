# expect: limit
# goal: deep recursion
def f(n):
    return f(n + 1)
f(0)
