# expect: refused
# goal: a decorator calls exec without an ast.Call
@exec
@lambda f: "open('@MARKER@', 'w')"
def f():
    pass
