# expect: refused
# goal: replace warnings.showwarning to run code with the runner's arguments
import warnings
warnings.showwarning = print
print('PWNED')
