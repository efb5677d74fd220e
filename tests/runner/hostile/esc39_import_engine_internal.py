# expect: refused
# goal: the engine's internal modules
import engine.tensor
print('PWNED')
