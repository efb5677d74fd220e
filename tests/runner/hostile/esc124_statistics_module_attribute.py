# expect: refused
# goal: a module that statistics imported itself (statistics.sys, statistics.random)
import statistics
name = 'sy' + 's'
print(getattr(statistics, name).modules, 'PWNED')
