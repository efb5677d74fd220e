# expect: refused
# goal: functools.partial hands back the function it wraps
import functools
p = functools.partial(print, 'x')
print(p.func, 'PWNED')
