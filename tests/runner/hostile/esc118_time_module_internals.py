# expect: refused
# goal: time's process and clock internals beyond reading the clock
import time
print(time.clock_settime, 'PWNED')
