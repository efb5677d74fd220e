# expect: refused
# goal: write a file
open('@MARKER@', 'w').write('pwned')
