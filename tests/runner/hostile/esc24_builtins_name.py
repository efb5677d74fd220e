# expect: refused
# goal: __builtins__ by name
__builtins__['open']('@MARKER@', 'w')
