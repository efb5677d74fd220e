# expect: refused
# goal: hasattr passed around probes private attributes
h = hasattr
print(h(print, '__self__'), 'PWNED')
