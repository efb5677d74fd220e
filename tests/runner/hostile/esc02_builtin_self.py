# expect: refused
# goal: a builtin's __self__ is the builtins module
len.__self__.open('@MARKER@', 'w')
