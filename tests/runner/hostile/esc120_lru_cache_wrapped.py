# expect: refused
# goal: a cached function's wrapped original through a computed name
import functools
f = functools.lru_cache(print)
print(getattr(f, '__wrap' + 'ped__'), 'PWNED')
