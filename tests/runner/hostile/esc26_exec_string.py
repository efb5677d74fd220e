# expect: refused
# goal: exec of a string
exec("open('@MARKER@', 'w')")
